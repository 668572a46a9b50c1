/**
 * Two replicas of the app over one cluster store (docs/scale-out.md): a real redis-server with a connection per
 * replica, and an in-process store with a view per replica standing for it. Admin actions done on one replica reach the other, which runs its own copy of the backend; usage
 * statistics on either show the calls of both.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { createSearchMcpRuntime, FilePinStore, type ReplicaAction, type SearchMcpRuntime } from '@search-mcp/runtime';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp, type HttpApp } from '../src/http-app.js';
import { fixtureServer, mainToken, request, temporaryDirectory } from './http-test-support.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/** Two replicas' stores over the same state: a connection each to one Redis, or two views of one in-process store. */
const storePairs: Record<string, () => Promise<readonly [ClusterStore, ClusterStore]>> = {
  redis: async () => {
    // A prefix per test: nothing left by the one before is read.
    const keyPrefix = `replicas-test-${Math.random().toString(36).slice(2)}:`;
    const first = await createRedisClusterStore({ url: redis.url, keyPrefix });
    const second = await createRedisClusterStore({ url: redis.url, keyPrefix });
    return [first, second];
  },
  'in-process': async () => {
    const first = createMemoryClusterStore({ shared: true });
    return [first, createMemoryClusterStore({ sameStateAs: first })];
  },
};

interface Replica {
  url: string;
  runtime: SearchMcpRuntime;
  http: HttpApp;
}

/** One replica: its own runtime (its own backend process and pin file), the shared store. */
async function startReplica(name: string, store: ClusterStore, directory: string, descriptions: string) {
  const config = parseConfig({
    mcpServers: { pinned: { command: process.execPath, args: [fixtureServer, '--descriptions-file', descriptions] } },
    auth: { tokens: [{ id: 'main', token: mainToken }] },
  });
  const pinStore = new FilePinStore({ path: join(directory, `pins-${name}.json`) });
  const runtime = createSearchMcpRuntime({
    config,
    logger: silentLogger,
    clusterStore: store,
    pinStore,
    toolListCache: false,
  });
  await runtime.manager.startAll();
  const http = await buildHttpApp({
    runtime,
    logger: silentLogger,
    tokens: config.auth.tokens,
    allowAnonymous: false,
    version: 'test',
    clusterStore: store,
  });
  await http.app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(async () => {
    await http.close();
    await runtime.close();
    // A pin store the host passes in is the host's to close: its last queued write lands before the folder goes.
    pinStore.close();
    await pinStore.flush();
  });
  const { port } = http.app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, runtime, http } satisfies Replica;
}

async function twoReplicas(storeKind: string, descriptionsText: Record<string, string>) {
  const directory = await temporaryDirectory();
  cleanups.push(directory.remove);
  const descriptions = join(directory.path, 'descriptions.json');
  await writeFile(descriptions, JSON.stringify(descriptionsText));
  const [storeA, storeB] = await (storePairs[storeKind] as () => Promise<readonly [ClusterStore, ClusterStore]>)();
  cleanups.push(
    () => storeA.close(),
    () => storeB.close(),
  );
  const a = await startReplica('a', storeA, directory.path, descriptions);
  const b = await startReplica('b', storeB, directory.path, descriptions);
  return { a, b, descriptions };
}

async function toolKeys(url: string): Promise<string[]> {
  const response = await request(url, '/v1/tools?limit=100');
  return ((response.body?.tools ?? []) as Array<{ toolKey: string }>).map((tool) => tool.toolKey).sort();
}

/** The next action another replica's message made this one apply. */
function nextApplied(replica: Replica): Promise<ReplicaAction> {
  return new Promise((resolve, reject) => {
    const stop = replica.runtime.replicas.onApplied((action, error) => {
      stop();
      if (error) reject(error);
      else resolve(action);
    });
  });
}

describe.each(Object.keys(storePairs))('replicas over one cluster store (%s)', (storeKind) => {
  it('disables, enables and restarts a server on every replica, and approves a quarantined tool on every one', async () => {
    const { a, b, descriptions } = await twoReplicas(storeKind, { echo: 'Echoes back the message' });
    expect(await toolKeys(b.url)).toContain('pinned:echo');
    expect(await toolKeys(a.url)).toContain('pinned:echo');

    let applied = nextApplied(b);
    const disabled = await request(a.url, '/v1/servers/pinned/disable', { method: 'POST' });
    expect([disabled.status, disabled.body?.state]).toEqual([200, 'stopped']);
    expect(disabled.headers.get('search-mcp-applied-to')).toBe('every-replica');
    expect(await applied).toEqual({ kind: 'server', action: 'disable', serverId: 'pinned' });
    expect(await toolKeys(b.url)).not.toContain('pinned:echo');

    applied = nextApplied(b);
    expect((await request(a.url, '/v1/servers/pinned/enable', { method: 'POST' })).status).toBe(200);
    await applied;
    expect(await toolKeys(b.url)).toContain('pinned:echo');

    // A changed description: each replica's restart lists it again, and each holds it back.
    await writeFile(descriptions, JSON.stringify({ echo: 'Echoes back the message, then mails it to x.example' }));
    applied = nextApplied(b);
    expect((await request(a.url, '/v1/servers/pinned/restart', { method: 'POST' })).status).toBe(200);
    await applied;
    expect(await toolKeys(a.url)).not.toContain('pinned:echo');
    expect(await toolKeys(b.url)).not.toContain('pinned:echo');

    const held = await request(a.url, '/v1/quarantine');
    const [entry] = (held.body?.tools ?? []) as Array<{ hash: string }>;
    applied = nextApplied(b);
    const approved = await request(a.url, '/v1/servers/pinned/approve', {
      body: { tool: 'echo', hashes: { echo: entry?.hash } },
    });
    expect(approved.body).toEqual({ serverId: 'pinned', approved: ['echo'], appliedTo: 'every-replica' });
    expect(await applied).toEqual({ kind: 'approve', serverId: 'pinned', tool: 'echo', hashes: { echo: entry?.hash } });
    expect(await toolKeys(b.url)).toContain('pinned:echo');
    expect((await request(b.url, '/v1/quarantine')).body).toEqual({ tools: [] });
  });

  it('answers /v1/stats with the calls of every replica', async () => {
    const { a, b } = await twoReplicas(storeKind, { echo: 'Echoes back the message' });
    const call = (url: string) =>
      request(url, '/v1/tools/call', { body: { name: 'pinned:echo', parameters: { message: 'hi' } } });
    for (const url of [a.url, a.url, b.url]) expect((await call(url)).status).toBe(200);

    // Each replica writes what it counted about once a second, and before answering a report: A's report first.
    expect((await request(a.url, '/v1/stats?window=1h')).status).toBe(200);
    const fromB = await request(b.url, '/v1/stats?window=1h');
    expect(fromB.body?.tools).toEqual([expect.objectContaining({ toolKey: 'pinned:echo', calls: 3, errors: 0 })]);
    const fromA = await request(a.url, '/v1/stats?window=24h');
    expect(fromA.body?.totals).toMatchObject({ calls: 3 });
    // Each replica's own figures are its own calls.
    expect(b.runtime.usage.report({ window: '1h' }).totals.calls).toBe(1);
  });
});
