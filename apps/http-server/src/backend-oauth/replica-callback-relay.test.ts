/**
 * Backend OAuth across replicas (docs/scale-out.md, "Backend OAuth across replicas"): two apps over one shared
 * cluster store (a real redis-server, and the in-process store standing for it), a real authorization server and protected MCP server from `@search-mcp/test-kit/oauth`.
 * The login begins on replica A; the balancer hands the browser's redirect to replica B, which relays it to A.
 */
import type { AddressInfo } from 'node:net';
import { type ClusterStore, createMemoryClusterStore, createRedisClusterStore } from '@search-mcp/cluster';
import { createSearchMcpRuntime } from '@search-mcp/runtime';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import {
  type AuthorizationServer,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '@search-mcp/test-kit/oauth';
import { type RedisServer, startRedisServer } from '@search-mcp/test-kit/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, mainToken, request } from '../../test/http-test-support.js';
import { buildHttpApp } from '../http-app.js';

interface Replica {
  url: string;
  close(): Promise<void>;
}

let authorizationServer: AuthorizationServer;
let mcpServer: ProtectedMcpServer;
let redis: RedisServer;

/** Two replicas' stores over the same state: a connection each to one Redis, or two views of one in-process store. */
const storePairs: Record<string, () => Promise<readonly [ClusterStore, ClusterStore]>> = {
  redis: async () => {
    const keyPrefix = `oauth-relay-test-${Math.random().toString(36).slice(2)}:`;
    return [
      await createRedisClusterStore({ url: redis.url, keyPrefix }),
      await createRedisClusterStore({ url: redis.url, keyPrefix }),
    ];
  },
  'in-process': async () => {
    const store = createMemoryClusterStore({ shared: true });
    return [store, createMemoryClusterStore({ sameStateAs: store })];
  },
};

async function startReplica(store: ClusterStore): Promise<Replica> {
  const config = parseConfig({
    mcpServers: { secure: { url: mcpServer.url.href } },
    auth: { tokens: [{ id: 'main', token: mainToken }] },
  });
  // The runtime keeps OAuth credentials in the shared store, as replicas do.
  const runtime = createSearchMcpRuntime({
    config,
    logger: silentLogger,
    clusterStore: store,
    manager: { oauth: { openAuthorizationUrl: false } },
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
  const { port } = http.app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await http.close();
      await runtime.close();
      await store.close();
    },
  };
}

/** A browser up to the redirect back to Search MCP: the URL of `/oauth/callback` the authorization server sent. */
async function redirectBack(authorizationUrl: string): Promise<URL> {
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 20; hop += 1) {
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`the authorization ended at ${url.pathname} (${response.status}) without a redirect`);
    url = new URL(location, url);
    if (url.pathname === '/oauth/callback') return url;
  }
  throw new Error('too many redirects');
}

/** The same callback, delivered to another replica (what a round-robin balancer does). */
function onReplica(callback: URL, replica: Replica): string {
  return `${replica.url}${callback.pathname}${callback.search}`;
}

async function secureState(replica: Replica): Promise<unknown> {
  return (await request(replica.url, '/v1/servers/secure')).body?.state;
}

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  mcpServer = await startProtectedMcpServer({ authorizationServer });
  redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  await mcpServer?.close();
  await authorizationServer?.close();
  await redis?.stop();
});

describe.each(Object.keys(storePairs))(
  'GET /oauth/callback on a replica that did not begin the login (%s store)',
  (kind) => {
    let first: Replica;
    let second: Replica;

    beforeAll(async () => {
      const [firstStore, secondStore] = await (
        storePairs[kind] as () => Promise<readonly [ClusterStore, ClusterStore]>
      )();
      first = await startReplica(firstStore);
      second = await startReplica(secondStore);
    }, 60_000);

    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('completes the login begun on another replica, whose server ends running', async () => {
      await eventually(async () => ((await secureState(first)) === 'needs-auth' ? true : undefined));
      const exchangesBefore = authorizationServer.activity.tokenRequests.authorization_code ?? 0;
      const started = await request(first.url, '/v1/servers/secure/authorize', { method: 'POST' });
      expect(started.status).toBe(200);
      const callback = await redirectBack(started.body?.authorizationUrl as string);
      expect(callback.origin).toBe(first.url);

      const page = await fetch(onReplica(callback, second));
      const text = await page.text();
      expect(page.status).toBe(200);
      expect(text).toContain('Search MCP is authorized');
      expect(text).toContain('the MCP server &#39;secure&#39;, and it is connected');
      expect(await secureState(first)).toBe('running');
      expect(authorizationServer.activity.tokenRequests.authorization_code).toBe(exchangesBefore + 1);

      // Used once: the same redirect again is refused by the replica that held the login, and B says so.
      const replayed = await fetch(onReplica(callback, second));
      expect(replayed.status).toBe(400);
      expect(await replayed.text()).toContain('Nothing was changed');
    }, 60_000);

    it('refuses at once a state no replica began (400), exchanging nothing', async () => {
      const before = authorizationServer.activity.tokenRequests.authorization_code ?? 0;
      const startedAt = Date.now();
      const page = await fetch(`${second.url}/oauth/callback?state=never-issued&code=forged`);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('does not complete any authorization');
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect(authorizationServer.activity.tokenRequests.authorization_code ?? 0).toBe(before);
    });
  },
);

describe('GET /oauth/callback when the replica that began the login has stopped', () => {
  it('answers after 15 s with a page saying no answer came (504), and how to check and retry', async () => {
    // The stopping replica holds a view: closing it leaves the shared state (the origin's close would clear it).
    const store = createMemoryClusterStore({ shared: true });
    const first = await startReplica(createMemoryClusterStore({ sameStateAs: store }));
    const second = await startReplica(store);
    try {
      await eventually(async () => ((await secureState(first)) === 'needs-auth' ? true : undefined));
      const started = await request(first.url, '/v1/servers/secure/authorize', { method: 'POST' });
      const callback = await redirectBack(started.body?.authorizationUrl as string);
      await first.close();

      const startedAt = Date.now();
      const page = await fetch(onReplica(callback, second));
      const text = await page.text();
      expect(page.status).toBe(504);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(14_000);
      expect(text).toContain('did not answer within 15 seconds');
      expect(text).toContain('GET /v1/servers/secure says');
    } finally {
      await second.close();
    }
  }, 60_000);
});
