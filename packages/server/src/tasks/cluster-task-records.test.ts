import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { startRedisServer } from '@search-mcp/test-kit/redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectBarePeer, connectThroughEntry, modernEnvelope } from '../../test/stdio-entry-link.js';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';

// Two replicas: each its own hub and its own server-everything process (its backend tasks are its own), one cluster
// store between them (an in-process store shared by both stands for Redis). server-everything's
// simulate-research-query requires a task (ttl 5 min, pollInterval 1 s) and completes in a few seconds.
const require = createRequire(import.meta.url);
const everythingManifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
const everythingBin = Object.values((require(everythingManifest) as { bin: Record<string, string> }).bin)[0] ?? '';
const config = parseConfig({
  mcpServers: { everything: { command: process.execPath, args: [join(dirname(everythingManifest), everythingBin)] } },
});

interface Replica {
  hub: ForwardingHub;
  manager: McpClientManager;
  catalog: ToolCatalog;
  close(): Promise<void>;
}

async function startReplica(store: ClusterStore | undefined): Promise<Replica> {
  const sessions = new ClientSessions({ logger: silentLogger });
  const manager = new McpClientManager(config, { reverseRequests: sessions, shutdownGraceMs: 300 });
  const catalog = new ToolCatalog({
    sources: [manager],
    config,
    executor: { retries: 0 },
    tokens: [{ id: 'ann' }, { id: 'bob' }],
  });
  const hub = new ForwardingHub({
    gateway: manager,
    catalog,
    sessions,
    logger: silentLogger,
    ...(store ? { clusterStore: store } : {}),
  });
  const started = await manager.startAll();
  expect(started.map((status) => status.state)).toEqual(['running']);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= hub.close().then(() => manager.close());
    return closing;
  };
  return { hub, manager, catalog, close };
}

const factoryOf = (replica: Replica) => (context: { era: 'legacy' | 'modern' }) =>
  createSearchMcpServer({
    catalog: replica.catalog,
    manager: replica.manager,
    hub: replica.hub,
    mode: 'proxy',
    era: context.era,
    resolveCaller: ({ meta }) => (typeof meta?.token === 'string' ? { tokenId: meta.token } : {}),
  });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A 2025-era 2.x SDK client of `replica` whose requests name `token` as their caller. */
async function legacyClient(replica: Replica, token: string) {
  const client = new Client({ name: 'cluster-tasks', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  closers.push(await connectThroughEntry(client, factoryOf(replica)));
  return (method: string, params: Record<string, unknown>) =>
    client.request({ method, params: { ...params, _meta: { token } } }, z.looseObject({}), {
      timeout: 30_000,
    }) as Promise<Record<string, unknown>>;
}

/** A bare 2026-07-28 peer of `replica` declaring the tasks extension. */
async function modernPeer(replica: Replica, token: string) {
  const peer = await connectBarePeer(factoryOf(replica), {
    ...modernEnvelope({ extensions: { 'io.modelcontextprotocol/tasks': {} } }),
    token,
  });
  closers.push(peer.close);
  return peer.send;
}

/** A research task created through `replica` by `token`'s 2025 client: its id as Search MCP exposes it. */
async function createTask(replica: Replica, token: string, topic: string): Promise<string> {
  const send = await legacyClient(replica, token);
  const { tools } = (await send('tools/list', {})) as { tools: Array<{ name: string }> };
  const name = tools.map((tool) => tool.name).find((candidate) => candidate.endsWith('simulate-research-query'));
  const created = await send('tools/call', { name, arguments: { topic }, task: { ttl: 60_000 } });
  const taskId = (created.task as { taskId?: unknown } | undefined)?.taskId;
  expect(typeof taskId).toBe('string');
  return String(taskId);
}

/** Polls `tasks/get` at the task's `pollInterval` (the protocol's pace) until it is terminal. */
async function pollUntilTerminal(
  send: (method: string, params: Record<string, unknown>) => Promise<unknown>,
  taskId: string,
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const task = (await send('tasks/get', { taskId })) as Record<string, unknown>;
    if (['completed', 'failed', 'cancelled'].includes(String(task.status))) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(task.status)} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, Number(task.pollInterval ?? 1000)));
  }
}

const textOf = (result: Record<string, unknown>) =>
  String(((result.content as unknown[] | undefined)?.[0] as { text?: unknown } | undefined)?.text);

describe('tasks across replicas sharing a cluster store', () => {
  let store: ClusterStore;
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    store = createMemoryClusterStore();
    [a, b] = await Promise.all([startReplica(store), startReplica(store)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await store?.close();
  });

  it('a task created through A is answered by B: its status while it runs, its result once done, in its list', async () => {
    const taskId = await createTask(a, 'ann', 'rust');
    const onB = await legacyClient(b, 'ann');
    const running = await onB('tasks/get', { taskId });
    expect(running).toMatchObject({ taskId, status: 'working', ttl: 300_000 });

    const ended = await pollUntilTerminal(onB, taskId);
    expect(ended).toMatchObject({ taskId, status: 'completed' });
    const result = await onB('tasks/result', { taskId });
    expect(textOf(result)).toContain('# Research Report: rust');
    // The same answer as the replica running it gives (its backend's result, under our id).
    const onA = await legacyClient(a, 'ann');
    expect(await onA('tasks/result', { taskId })).toEqual(result);

    const { tasks } = (await onB('tasks/list', {})) as { tasks: Array<Record<string, unknown>> };
    expect(tasks.find((task) => task.taskId === taskId)).toMatchObject({ status: 'completed' });

    // A 2026-07-28 client of the same token reads it on B in the extension's shape, the result inline.
    const modern = await modernPeer(b, 'ann');
    const task = await modern('tasks/get', { taskId });
    expect((task.result as Record<string, unknown>)?.status).toBe('completed');
    expect(textOf((task.result as Record<string, unknown>).result as Record<string, unknown>)).toContain(
      '# Research Report: rust',
    );
  }, 60_000);

  it('another owner is told "not found" on every replica, and never listed it', async () => {
    const taskId = await createTask(a, 'ann', 'go');
    for (const replica of [a, b]) {
      const bob = await legacyClient(replica, 'bob');
      await expect(bob('tasks/get', { taskId })).rejects.toThrow(/Task not found/);
      await expect(bob('tasks/result', { taskId })).rejects.toThrow(/Task not found/);
      const { tasks } = (await bob('tasks/list', {})) as { tasks: Array<Record<string, unknown>> };
      expect(tasks.map((task) => task.taskId)).not.toContain(taskId);
    }
  }, 60_000);

  it('a cancel sent to B reaches the backend task on A (publish/subscribe)', async () => {
    const taskId = await createTask(a, 'ann', 'zig');
    const onB = await legacyClient(b, 'ann');
    await onB('tasks/cancel', { taskId });
    const ended = await pollUntilTerminal(onB, taskId);
    expect(ended).toMatchObject({ taskId, status: 'cancelled' });
  }, 60_000);
});

describe('a replica that stops', () => {
  it('leaves its running tasks readable as failed, saying why; its ended tasks keep their result', async () => {
    const store = createMemoryClusterStore();
    const [a, b] = await Promise.all([startReplica(store), startReplica(store)]);
    try {
      const done = await createTask(a, 'ann', 'ada');
      await pollUntilTerminal(await legacyClient(a, 'ann'), done);
      const taskId = await createTask(a, 'ann', 'ocaml');
      const onB = await legacyClient(b, 'ann');
      expect(await onB('tasks/get', { taskId })).toMatchObject({ status: 'working' });

      await a.close();
      const failed = await onB('tasks/get', { taskId });
      expect(failed).toMatchObject({ taskId, status: 'failed' });
      expect(String(failed.statusMessage)).toMatch(/replica running this task stopped/);
      await expect(onB('tasks/result', { taskId })).rejects.toThrow(/replica running this task stopped/);
      const modern = await modernPeer(b, 'ann');
      expect(await modern('tasks/get', { taskId })).toMatchObject({
        result: { status: 'failed', error: { message: expect.stringMatching(/replica running this task stopped/) } },
      });
      // The task that ended before the replica stopped still answers its result.
      expect(textOf(await onB('tasks/result', { taskId: done }))).toContain('# Research Report: ada');

      await expect((await legacyClient(b, 'bob'))('tasks/get', { taskId })).rejects.toThrow(/Task not found/);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await store.close();
    }
  }, 90_000);

  it('without a cluster store, a task is known only to the replica that created it (as before)', async () => {
    const store = createMemoryClusterStore();
    const [a, alone] = await Promise.all([startReplica(store), startReplica(undefined)]);
    try {
      const taskId = await createTask(a, 'ann', 'lua');
      await expect((await legacyClient(alone, 'ann'))('tasks/get', { taskId })).rejects.toThrow(/Task not found/);
    } finally {
      await Promise.all([a.close(), alone.close()]);
      await store.close();
    }
  }, 60_000);
});

describe('over Redis (each replica its own connection)', () => {
  it('B answers a task A ran to its end, and one A left running when it stopped as failed', async () => {
    const redis = await startRedisServer();
    const storeA = await createRedisClusterStore({ url: redis.url });
    const storeB = await createRedisClusterStore({ url: redis.url });
    const [a, b] = await Promise.all([startReplica(storeA), startReplica(storeB)]);
    try {
      const done = await createTask(a, 'ann', 'erlang');
      const onB = await legacyClient(b, 'ann');
      expect(await pollUntilTerminal(onB, done)).toMatchObject({ taskId: done, status: 'completed' });
      expect(textOf(await onB('tasks/result', { taskId: done }))).toContain('# Research Report: erlang');

      const taskId = await createTask(a, 'ann', 'elixir');
      expect(await onB('tasks/get', { taskId })).toMatchObject({ status: 'working' });
      await a.close();
      expect(await onB('tasks/get', { taskId })).toMatchObject({
        status: 'failed',
        statusMessage: expect.stringMatching(/replica running this task stopped/),
      });
      await expect((await legacyClient(b, 'bob'))('tasks/get', { taskId: done })).rejects.toThrow(/Task not found/);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([storeA.close(), storeB.close()]);
      await redis.stop();
    }
  }, 90_000);

  it('while Redis is down, task methods answer a generic temporary error; an id that is not ours reads nothing', async () => {
    const redis = await startRedisServer();
    // Commands wait 1 s for a Redis that is away; the first connection has as long (300 ms can be too short for it on a
    // machine running two suites at once).
    const store = await createRedisClusterStore({ url: redis.url, connectTimeoutMs: 1000 });
    const a = await startReplica(store);
    try {
      const send = await legacyClient(a, 'ann');
      await redis.stopProcess();
      const port = new URL(redis.url).port;
      for (const [method, params] of [
        ['tasks/get', { taskId: randomUUID() }],
        ['tasks/result', { taskId: randomUUID() }],
        ['tasks/list', {}],
      ] as const) {
        const error = await send(method, params).then(
          () => undefined,
          (caught: unknown) => caught as Error & { code?: number },
        );
        expect(error?.message).toMatch(/temporary; try again shortly/);
        expect(error?.code).toBe(-32000);
        // Neither the store's address nor its keys reach the client.
        expect(error?.message).not.toContain(port);
        expect(error?.message).not.toMatch(/redis|task\//i);
      }
      // Not a UUID: unknown at once, without waiting for the store.
      await expect(send('tasks/get', { taskId: 'search-mcp:task/../x' })).rejects.toThrow(/Task not found/);
    } finally {
      await a.close();
      await store.close();
      await redis.stop();
    }
  }, 60_000);
});
