import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { parseConfig } from '@search-mcp/shared';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchMcpRuntime, type SearchMcpRuntime } from './search-mcp-runtime.js';

// Two runtimes stand for two replicas, each with its own server-everything (simulate-research-query requires a task
// and completes in a few seconds). The runtime hands its cluster store to the forwarding hub only when it is shared
// (Redis): the in-process store keeps tasks in the runtime, as without one (packages/server/README.md, "Tasks across
// replicas").
const require = createRequire(import.meta.url);
const everythingManifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
const everythingBin = Object.values((require(everythingManifest) as { bin: Record<string, string> }).bin)[0] ?? '';
const config = parseConfig({
  mcpServers: { everything: { command: process.execPath, args: [join(dirname(everythingManifest), everythingBin)] } },
  exposure: { mode: 'proxy' },
  auth: { tokens: [{ id: 'ann', token: 'ann-secret-token-0123456789' }] },
});

const runtimes: SearchMcpRuntime[] = [];
const stores: ClusterStore[] = [];
let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await redis?.stop();
});

async function replica(clusterStore: ClusterStore) {
  const runtime = createSearchMcpRuntime({
    config,
    clusterStore,
    persistUsage: false,
    pinStore: false,
    toolListCache: false,
  });
  runtimes.push(runtime);
  await runtime.startBackends();
  return runtime;
}

/** A 2025 client of `runtime` whose requests are the token `ann`'s (owner of the tasks it creates). */
async function client(runtime: SearchMcpRuntime) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await runtime.createServer({ resolveCaller: () => ({ tokenId: 'ann' }) }).connect(serverTransport);
  const sdkClient = new Client({ name: 'cluster-tasks', version: '1' });
  await sdkClient.connect(clientTransport);
  return (method: string, params: Record<string, unknown>) =>
    sdkClient.request({ method, params } as never, ResultSchema.passthrough(), { timeout: 30_000 }) as Promise<
      Record<string, unknown>
    >;
}

async function createTask(runtime: SearchMcpRuntime): Promise<string> {
  const send = await client(runtime);
  const created = await send('tools/call', {
    name: 'everything__simulate-research-query',
    arguments: { topic: 'wiring' },
    task: { ttl: 60_000 },
  });
  return String((created.task as { taskId?: unknown } | undefined)?.taskId);
}

describe('the runtime wires tasks to the cluster store', () => {
  it('with a shared store (Redis), a task created through one runtime is read through the other', async () => {
    const [storeA, storeB] = await Promise.all([
      createRedisClusterStore({ url: redis.url }),
      createRedisClusterStore({ url: redis.url }),
    ]);
    stores.push(storeA, storeB);
    const [a, b] = await Promise.all([replica(storeA), replica(storeB)]);
    const taskId = await createTask(a);
    const onB = await client(b);
    expect(await onB('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    await a.close();
    expect(await onB('tasks/get', { taskId })).toMatchObject({
      taskId,
      status: 'failed',
      statusMessage: expect.stringMatching(/replica running this task stopped/),
    });
  }, 90_000);

  it('with the in-process store, tasks stay in the runtime that created them', async () => {
    const store = createMemoryClusterStore();
    stores.push(store);
    const [a, b] = await Promise.all([replica(store), replica(store)]);
    const taskId = await createTask(a);
    await expect((await client(b))('tasks/get', { taskId })).rejects.toThrow(/Task not found/);
  }, 90_000);
});
