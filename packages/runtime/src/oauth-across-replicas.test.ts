import { createMemoryClusterStore } from '@search-mcp/cluster';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { startAuthorizationServer, startProtectedMcpServer } from '@search-mcp/test-kit/oauth';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpRuntime } from './search-mcp-runtime.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const clientSecret = 'replicas-client-secret-0123456789';

/**
 * Backend OAuth credentials in a shared cluster store (docs/oauth.md, "Storage"): the token one replica obtained is
 * the one the other uses, so a second replica asks the authorization server for nothing.
 */
describe('a runtime with a shared cluster store', () => {
  it('connects with the token another replica obtained, without asking for one of its own', async () => {
    const authorizationServer = await startAuthorizationServer({ dynamicRegistration: false });
    cleanups.push(() => authorizationServer.close());
    const mcpServer = await startProtectedMcpServer({ authorizationServer });
    cleanups.push(() => mcpServer.close());
    await authorizationServer.registerClient({
      client_id: 'search-mcp-replicas',
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
    });
    const config = parseConfig({
      mcpServers: {
        remote: {
          url: mcpServer.url.href,
          oauth: { grant: 'client_credentials', clientId: 'search-mcp-replicas', clientSecret, scopes: 'mcp:read' },
        },
      },
    });
    const storeA = createMemoryClusterStore({ shared: true });
    const storeB = createMemoryClusterStore({ sameStateAs: storeA });
    cleanups.push(
      () => storeA.close(),
      () => storeB.close(),
    );
    const replica = (clusterStore: typeof storeA) => {
      const runtime = createSearchMcpRuntime({
        config,
        logger: silentLogger,
        clusterStore,
        pinStore: false,
        toolListCache: false,
        manager: {
          oauth: {
            openAuthorizationUrl: () => {
              throw new Error('nobody is asked: a client_credentials grant');
            },
          },
        },
      });
      cleanups.push(() => runtime.close());
      return runtime;
    };

    const a = replica(storeA);
    const [statusA] = await a.manager.startAll();
    expect(statusA?.state, statusA?.lastError).toBe('running');
    expect(authorizationServer.activity.tokenRequests.client_credentials).toBe(1);

    const b = replica(storeB);
    const [statusB] = await b.manager.startAll();
    expect(statusB?.state, statusB?.lastError).toBe('running');
    expect(statusB?.oauth).toMatchObject({ state: 'authorized' });
    // B read A's token from the store.
    expect(authorizationServer.activity.tokenRequests.client_credentials).toBe(1);
  });
});
