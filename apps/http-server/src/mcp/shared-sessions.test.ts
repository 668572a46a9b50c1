import { randomUUID } from 'node:crypto';
import { type ClusterStore, createMemoryClusterStore } from '@search-mcp/cluster';
import { silentLogger } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import type { EndpointSession } from './endpoint-session.js';
import type { SharedSessionRecord } from './shared-session-record.js';
import { type Resumption, SharedSessions } from './shared-sessions.js';

const ttlMs = 60_000;
const refreshEveryMs = 15_000;

/** One clock for the store and both replicas, and the store's calls counted by name. */
function setUp() {
  let time = 1_000_000;
  const now = () => time;
  const memory = createMemoryClusterStore({ now });
  const calls: string[] = [];
  const store: ClusterStore = {
    ...memory,
    getRecord: (key) => {
      calls.push(`get ${key}`);
      return memory.getRecord(key);
    },
    setRecord: (key, value, options) => {
      calls.push(`set ${key}`);
      return memory.setRecord(key, value, options);
    },
    touchRecord: (key, ms) => {
      calls.push(`touch ${key}`);
      return memory.touchRecord(key, ms);
    },
  };
  const endedElsewhere: string[][] = [[], []];
  const changedElsewhere: Array<Array<{ id: string; record: SharedSessionRecord }>> = [[], []];
  const replicas = [0, 1].map(
    (index) =>
      new SharedSessions({
        store,
        ttlMs,
        refreshEveryMs,
        logger: silentLogger,
        now,
        onEndedElsewhere: (id) => endedElsewhere[index]?.push(id),
        onChangedElsewhere: (id, record) => changedElsewhere[index]?.push({ id, record }),
      }),
  );
  return {
    store,
    calls,
    endedElsewhere,
    changedElsewhere,
    a: replicas[0] as SharedSessions,
    b: replicas[1] as SharedSessions,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

/** What `SharedSessions` reads of a session: its record and when it was last shared (the rest is the endpoint's). */
const sessionStub = () => ({ sharedAt: 0 }) as EndpointSession;

const recordOf = (replica: string, changes: Partial<SharedSessionRecord> = {}): SharedSessionRecord => ({
  principal: 'main',
  projectId: 'alpha',
  initialize: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  replica,
  ...changes,
});

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedSessions', () => {
  it('moves a record’s expiry at most once per refresh interval, and writes a change at once', async () => {
    const { a, store, calls, advance, changedElsewhere } = setUp();
    const id = randomUUID();
    const session = sessionStub();
    await a.opened(id, session, recordOf(a.replicaId));
    calls.length = 0;
    for (let request = 0; request < 10; request += 1) {
      a.used(id, session, { jsonrpc: '2.0', id: request, method: 'tools/list' });
      advance(1000);
    }
    await settled();
    expect(calls).toEqual([]);
    advance(refreshEveryMs);
    a.used(id, session, undefined);
    a.used(id, session, undefined);
    await settled();
    expect(calls).toEqual([`get mcp-session:${id}`, `touch mcp-session:${id}`]);
    // The touch moved the expiry: the record outlives the first write's ttl.
    advance(ttlMs - 1000);
    expect(await store.getRecord(`mcp-session:${id}`)).toMatchObject({ principal: 'main' });

    a.used(id, session, { jsonrpc: '2.0', id: 99, method: 'logging/setLevel', params: { level: 'error' } });
    await settled();
    // Recorded only once the server accepted it.
    expect(await store.getRecord(`mcp-session:${id}`)).not.toHaveProperty('logLevel');
    await a.answered(id, session, 99, true);
    expect(await store.getRecord(`mcp-session:${id}`)).toMatchObject({ logLevel: 'error' });
    // The other replica hears of the change (its copy of the session follows); the changing one does not.
    await expect
      .poll(() => changedElsewhere[1])
      .toEqual([{ id, record: expect.objectContaining({ logLevel: 'error' }) }]);
    expect(changedElsewhere[0]).toEqual([]);
  });

  it('writes the record again when it vanished while the session is used here', async () => {
    const { a, b, store, advance } = setUp();
    const id = randomUUID();
    const session = sessionStub();
    await a.opened(id, session, recordOf(a.replicaId));
    await store.deleteRecord(`mcp-session:${id}`);
    advance(refreshEveryMs);
    b.used(id, session, undefined);
    await expect.poll(() => store.getRecord(`mcp-session:${id}`)).toMatchObject({ replica: b.replicaId });
  });

  it('ends a record by how the session ended: closed everywhere, idle only by its replica, kept at shutdown', async () => {
    const { a, b, store, endedElsewhere } = setUp();
    const [idle, moved, kept, closed] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const sessions = new Map([idle, moved, kept, closed].map((id) => [id, sessionStub()] as const));
    for (const [id, session] of sessions) await a.opened(id, session, recordOf(a.replicaId));
    // `moved` is served by B now (B rewrote the record when it resumed it).
    await b.opened(moved, sessionStub(), recordOf(b.replicaId));

    await a.ended(idle, sessions.get(idle) as EndpointSession, 'idle');
    await a.ended(moved, sessions.get(moved) as EndpointSession, 'idle');
    await a.ended(kept, sessions.get(kept) as EndpointSession, 'kept');
    await a.ended(closed, sessions.get(closed) as EndpointSession, 'closed');

    expect(await store.getRecord(`mcp-session:${idle}`)).toBeUndefined();
    expect(await store.getRecord(`mcp-session:${moved}`)).toMatchObject({ replica: b.replicaId });
    expect(await store.getRecord(`mcp-session:${kept}`)).toBeDefined();
    expect(await store.getRecord(`mcp-session:${closed}`)).toBeUndefined();
    await expect.poll(() => endedElsewhere[1]).toEqual([closed]);
    expect(endedElsewhere[0]).toEqual([]);
  });

  it('resumes only a minted id of the same principal, rebuilding once however many ask', async () => {
    const { a, b, calls } = setUp();
    const id = randomUUID();
    await a.opened(id, sessionStub(), recordOf(a.replicaId));
    calls.length = 0;
    let rebuilds = 0;
    const rebuilt = sessionStub();
    const rebuild = async (): Promise<Resumption> => {
      rebuilds += 1;
      await settled();
      return { resumed: true, session: rebuilt };
    };

    expect(await b.resume('../../etc/passwd', {}, 'main', rebuild)).toEqual({ resumed: false });
    expect(calls).toEqual([]);
    expect(await b.resume(id, { tokenId: 'other' }, 'other', rebuild)).toEqual({ resumed: false });
    expect(rebuilds).toBe(0);

    const answers = await Promise.all([1, 2, 3].map(() => b.resume(id, { tokenId: 'main' }, 'main', rebuild)));
    expect(rebuilds).toBe(1);
    for (const answer of answers) expect(answer).toEqual({ resumed: true, session: rebuilt });
    expect(rebuilt.record).toMatchObject({ replica: b.replicaId, projectId: 'alpha' });
  });

  it('records a log level or subscription only once the server answered it with a result', async () => {
    const { a, store, changedElsewhere } = setUp();
    const id = randomUUID();
    const session = sessionStub();
    await a.opened(id, session, recordOf(a.replicaId));
    a.used(id, session, [
      { jsonrpc: '2.0', id: 'level', method: 'logging/setLevel', params: { level: 'no-such-level' } },
      { jsonrpc: '2.0', id: 'subscribe', method: 'resources/subscribe', params: { uri: 'file:///watched' } },
    ]);
    await a.answered(id, session, 'level', false);
    await a.answered(id, session, 'subscribe', true);
    // An answer to a request that changed nothing (or was answered already) writes nothing.
    await a.answered(id, session, 'subscribe', true);
    const record = await store.getRecord<SharedSessionRecord>(`mcp-session:${id}`);
    expect(record).not.toHaveProperty('logLevel');
    expect(record?.subscriptions).toEqual(['file:///watched']);
    await expect.poll(() => changedElsewhere[1]?.length).toBe(1);
  });

  it('makes the replica that serves a session the one its record names, when another served it since', async () => {
    const { a, b, store, advance } = setUp();
    const id = randomUUID();
    const session = sessionStub();
    await a.opened(id, session, recordOf(a.replicaId));
    // B serves it for a while (a balancer that is not sticky), then A again.
    const resumed = await b.resume(id, { tokenId: 'main' }, 'main', async () => ({
      resumed: true,
      session: sessionStub(),
    }));
    expect(resumed.resumed).toBe(true);
    expect(await store.getRecord(`mcp-session:${id}`)).toMatchObject({ replica: b.replicaId });
    advance(refreshEveryMs);
    a.used(id, session, undefined);
    await expect.poll(() => store.getRecord(`mcp-session:${id}`)).toMatchObject({ replica: a.replicaId });
    // B's idle sweep leaves the record to A, which serves it now.
    await b.ended(id, resumed.resumed ? resumed.session : sessionStub(), 'idle');
    expect(await store.getRecord(`mcp-session:${id}`)).toMatchObject({ replica: a.replicaId });
  });

  it('never writes back a session its client ended, neither on use elsewhere nor from a rebuild racing the DELETE', async () => {
    const { a, b, store, advance, endedElsewhere } = setUp();
    const id = randomUUID();
    const atA = sessionStub();
    await a.opened(id, atA, recordOf(a.replicaId));
    // B holds a copy too; the DELETE reaches A.
    const atB = { ...sessionStub(), record: recordOf(a.replicaId) } as EndpointSession;
    await a.ended(id, atA, 'closed');
    advance(refreshEveryMs);
    b.used(id, atB, undefined);
    // B closes its copy: told by A, and again when its refresh finds the session ended.
    await expect.poll(() => endedElsewhere[1]).toEqual([id, id]);
    expect(await store.getRecord(`mcp-session:${id}`)).toBeUndefined();

    const raced = randomUUID();
    const opened = sessionStub();
    await a.opened(raced, opened, recordOf(a.replicaId));
    const answer = await b.resume(raced, { tokenId: 'main' }, 'main', async () => {
      // The record was read; the DELETE lands at A before the rebuild is done.
      await a.ended(raced, opened, 'closed');
      return { resumed: true, session: sessionStub() };
    });
    expect(answer).toEqual({ resumed: false });
    expect(await store.getRecord(`mcp-session:${raced}`)).toBeUndefined();
    expect(endedElsewhere[1]).toContain(raced);
  });

  it('ends a session it does not hold without rebuilding it, only for its own principal', async () => {
    const { a, b, store, advance, endedElsewhere } = setUp();
    const id = randomUUID();
    const session = sessionStub();
    await a.opened(id, session, recordOf(a.replicaId));
    expect(await b.endNotHeld(id, 'other')).toBe(false);
    expect(await b.endNotHeld('not-minted', 'main')).toBe(false);
    expect(await store.getRecord(`mcp-session:${id}`)).toBeDefined();
    expect(await b.endNotHeld(id, 'main')).toBe(true);
    expect(await store.getRecord(`mcp-session:${id}`)).toBeUndefined();
    await expect.poll(() => endedElsewhere[0]).toEqual([id]);
    // A's next refresh does not bring it back.
    advance(refreshEveryMs);
    a.used(id, session, undefined);
    await expect.poll(() => endedElsewhere[0]).toEqual([id, id]);
    expect(await store.getRecord(`mcp-session:${id}`)).toBeUndefined();
  });
});
