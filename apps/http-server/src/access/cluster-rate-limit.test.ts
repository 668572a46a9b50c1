import { randomUUID } from 'node:crypto';
import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import rateLimit from '@fastify/rate-limit';
import { createJsonLineLogger } from '@search-mcp/shared';
import Fastify from 'fastify';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request, type Running, startApp } from '../../test/http-test-support.js';
import { clusterRateLimitStore } from './cluster-rate-limit-store.js';

/** Two apps over stores that share state: two replicas behind a balancer. Closed in reverse order of starting. */
async function twoReplicas(stores: [ClusterStore, ClusterStore], rateLimitPerMinute: number, logLines?: string[]) {
  const logger = createJsonLineLogger({ write: (line) => logLines?.push(line) });
  const replicas: Running[] = [];
  for (const clusterStore of stores) {
    replicas.push(await startApp({ backends: 'none', app: { rateLimitPerMinute, clusterStore, logger } }));
  }
  return {
    replicas,
    close: async () => {
      for (const replica of replicas.reverse()) await replica.close();
      for (const store of stores) await store.close();
    },
  };
}

/** Sends `count` requests of one token, alternating between the replicas; answers the statuses in order. */
async function alternate(replicas: Running[], count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const replica = replicas[index % replicas.length] as Running;
    statuses.push((await request(replica.url, '/v1/tools')).status);
  }
  return statuses;
}

describe('rate limits across replicas', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer({ appendOnly: true });
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('counts the requests to both replicas against one limit (in-process store shared by two apps)', async () => {
    const shared = createMemoryClusterStore({ shared: true });
    const cluster = await twoReplicas([shared, createMemoryClusterStore({ sameStateAs: shared })], 4);
    try {
      expect(await alternate(cluster.replicas, 6)).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await cluster.close();
    }
  });

  it('counts the requests to both replicas against one limit in Redis', async () => {
    const keyPrefix = `limits-${randomUUID()}:`;
    const cluster = await twoReplicas(
      [
        await createRedisClusterStore({ url: redis.url, keyPrefix }),
        await createRedisClusterStore({ url: redis.url, keyPrefix }),
      ],
      5,
    );
    try {
      const statuses = await alternate(cluster.replicas, 8);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      const refused = await request(cluster.replicas[0]?.url ?? '', '/v1/tools');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await cluster.close();
    }
  });

  it('lets requests through with one logged warning while Redis is down (fail open), and limits again after', async () => {
    const keyPrefix = `open-${randomUUID()}:`;
    const lines: string[] = [];
    const cluster = await twoReplicas(
      [
        await createRedisClusterStore({ url: redis.url, keyPrefix }),
        await createRedisClusterStore({ url: redis.url, keyPrefix }),
      ],
      3,
      lines,
    );
    try {
      expect(await alternate(cluster.replicas, 2)).toEqual([200, 200]);
      await redis.stopProcess();
      // Past the limit, but nothing can count: every request is answered, none refused.
      expect(await alternate(cluster.replicas, 4)).toEqual([200, 200, 200, 200]);
      const warnings = lines.filter((line) => line.includes('rate limits are not enforced'));
      // One warning per replica for the outage, not one per request.
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toContain(`redis://127.0.0.1:${redis.port}/0`);

      await redis.start();
      // Counting resumes with the window kept through the restart: the limit soon refuses again.
      await vi.waitFor(
        async () => expect((await request(cluster.replicas[1]?.url ?? '', '/v1/tools')).status).toBe(429),
        {
          timeout: 15_000,
          interval: 100,
        },
      );
    } finally {
      if (!redis.running) await redis.start();
      await cluster.close();
    }
  });
});

describe('routes with limits of their own', () => {
  it('count in their own windows, one per route', async () => {
    const store = createMemoryClusterStore();
    const app = Fastify();
    await app.register(rateLimit, {
      global: false,
      store: clusterRateLimitStore(store, createJsonLineLogger({ write: () => {} })),
      skipOnError: true,
    });
    const routeLimit = { config: { rateLimit: { max: 1, timeWindow: 60_000 } } };
    app.get('/first', routeLimit, async () => 'first');
    app.get('/second', routeLimit, async () => 'second');
    try {
      const status = async (url: string) => (await app.inject({ method: 'GET', url })).statusCode;
      expect([await status('/first'), await status('/first')]).toEqual([200, 429]);
      // Its own window: the first route's requests do not count here.
      expect([await status('/second'), await status('/second')]).toEqual([200, 429]);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
