import { createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { startRedisServer } from '@search-mcp/test-kit/redis';
import { describe, expect, it } from 'vitest';
import { eventually, request, startApp } from '../../test/http-test-support.js';

/** `/readyz`'s status and reason, for `eventually`. */
async function readiness(url: string) {
  const answer = await request(url, '/readyz', { token: null });
  return { status: answer.status, reason: answer.body?.reason as string | undefined };
}

describe('GET /readyz with a shared cluster store', () => {
  it('is 503 once the store is closed; /healthz stays 200', async () => {
    const store = createMemoryClusterStore();
    const running = await startApp({ backends: 'none', app: { clusterStore: store, drainMs: 0 } });
    try {
      expect(await readiness(running.url)).toEqual({ status: 200, reason: undefined });
      await store.close();
      expect(await readiness(running.url)).toEqual({ status: 503, reason: 'cluster-store-down' });
      expect(await request(running.url, '/healthz', { token: null })).toMatchObject({ status: 200 });
    } finally {
      await running.close();
    }
  });

  it('follows a real Redis: 503 while it is stopped, 200 again once it is back', async () => {
    const redis = await startRedisServer();
    const store = await createRedisClusterStore({ url: redis.url, connectTimeoutMs: 1000 });
    const running = await startApp({ backends: 'none', app: { clusterStore: store, drainMs: 0 } });
    try {
      expect(await readiness(running.url)).toEqual({ status: 200, reason: undefined });
      await redis.stopProcess();
      // Polled: nothing tells the test when the app's next ping fails.
      expect(
        await eventually(async () => {
          const state = await readiness(running.url);
          return state.status === 503 ? state : undefined;
        }),
      ).toEqual({ status: 503, reason: 'cluster-store-down' });
      // Liveness does not ask Redis: an outage must not get the replica restarted.
      expect(await request(running.url, '/healthz', { token: null })).toMatchObject({ status: 200 });
      await redis.start();
      expect(
        await eventually(async () => {
          const state = await readiness(running.url);
          return state.status === 200 ? state : undefined;
        }),
      ).toEqual({ status: 200, reason: undefined });
    } finally {
      await running.close();
      await store.close();
      await redis.stop();
    }
  });
});
