import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { createJsonLineLogger } from '@search-mcp/shared';
import { startRedisServer } from '@search-mcp/test-kit/redis';
import { describe, expect, it } from 'vitest';
import { eventually, request, slowServer, startApp, temporaryDirectory } from '../../test/http-test-support.js';

/** `/readyz`'s status, reason and cluster store state, for `eventually`. */
async function readiness(url: string) {
  const answer = await request(url, '/readyz', { token: null });
  return {
    status: answer.status,
    reason: answer.body?.reason as string | undefined,
    store: answer.body?.store as string | undefined,
  };
}

/** The warnings logged so far whose message mentions the cluster store. */
const storeWarnings = (lines: string[]) =>
  lines.filter((line) => line.includes('"warn"') && line.includes('this replica stays ready'));

describe('GET /readyz with a shared cluster store', () => {
  it('stays 200 once the store is closed, reporting it down; /healthz stays 200', async () => {
    const store = createMemoryClusterStore();
    const running = await startApp({ backends: 'none', app: { clusterStore: store, drainMs: 0 } });
    try {
      expect(await readiness(running.url)).toEqual({ status: 200, reason: undefined, store: 'up' });
      await store.close();
      expect(await readiness(running.url)).toEqual({ status: 200, reason: undefined, store: 'down' });
      expect(await request(running.url, '/healthz', { token: null })).toMatchObject({ status: 200 });
    } finally {
      await running.close();
    }
  });

  it('follows a real Redis: ready throughout, the store reported down while it is stopped (one warning) and up after', async () => {
    const redis = await startRedisServer();
    const store = await createRedisClusterStore({ url: redis.url, connectTimeoutMs: 1000 });
    const lines: string[] = [];
    const logger = createJsonLineLogger({ write: (line) => lines.push(line) });
    const running = await startApp({ backends: 'none', app: { clusterStore: store, drainMs: 0, logger } });
    try {
      expect(await readiness(running.url)).toEqual({ status: 200, reason: undefined, store: 'up' });
      await redis.stopProcess();
      // Polled: nothing tells the test when the app's next ping fails. Every replica shares this Redis: none of them
      // goes unready for it, or the balancer would have nowhere to send anything.
      expect(
        await eventually(async () => {
          const state = await readiness(running.url);
          return state.store === 'down' ? state : undefined;
        }),
      ).toEqual({ status: 200, reason: undefined, store: 'down' });
      expect(await readiness(running.url)).toMatchObject({ status: 200, store: 'down' });
      expect(storeWarnings(lines)).toHaveLength(1);
      // Liveness does not ask Redis: an outage must not get the replica restarted.
      expect(await request(running.url, '/healthz', { token: null })).toMatchObject({ status: 200 });
      await redis.start();
      expect(
        await eventually(async () => {
          const state = await readiness(running.url);
          return state.store === 'up' ? state : undefined;
        }),
      ).toEqual({ status: 200, reason: undefined, store: 'up' });
    } finally {
      await running.close();
      await store.close();
      await redis.stop();
    }
  });
});

describe('GET /readyz and /healthz during the shutdown grace period', () => {
  it('answers readiness 503 shutting-down and liveness 200 while a call in flight finishes', async () => {
    const directory = await temporaryDirectory();
    const events = join(directory.path, 'grace.events');
    const running = await startApp({
      backends: 'none',
      config: {
        mcpServers: { slow: { command: process.execPath, args: [slowServer], env: { SLOW_SERVER_EVENTS: events } } },
      },
      app: { drainMs: 0, shutdownGraceMs: 5000 },
    });
    let closing: Promise<void> | undefined;
    try {
      await eventually(async () => ((await request(running.url, '/v1/tools')).body?.tools?.length ? true : undefined));
      expect(await readiness(running.url)).toMatchObject({ status: 200 });
      const call = request(running.url, '/v1/tools/call', { body: { name: 'slow:wait', parameters: { ms: 1500 } } });
      // Once the backend holds the call, the close below waits for it in its grace period.
      await eventually(async () =>
        (await readFile(events, 'utf8').catch(() => '')).includes('started 1500') ? true : undefined,
      );
      closing = running.http.close();
      expect(
        await eventually(async () => {
          const state = await readiness(running.url);
          return state.reason === 'shutting-down' ? state : undefined;
        }),
      ).toEqual({ status: 503, reason: 'shutting-down', store: undefined });
      expect(await request(running.url, '/healthz', { token: null })).toMatchObject({
        status: 200,
        body: { status: 'ok' },
      });
      // Other requests are turned away during the grace period.
      expect(await request(running.url, '/v1/tools')).toMatchObject({ status: 503 });
      expect(await call).toMatchObject({ status: 200 });
    } finally {
      await closing;
      await running.close();
      await directory.remove();
    }
  });
});
