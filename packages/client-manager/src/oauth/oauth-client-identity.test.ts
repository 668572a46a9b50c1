import { describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import {
  createRecordingOAuthStore,
  expectNoSecret,
  followingOpener,
  protocolChoices,
  secretsEverStored,
  storedCredentials,
  textOf,
  useOAuthFixtures,
} from '../../test/oauth-harness.js';

/**
 * Client identity in the MCP authorization spec's order (docs/oauth.md): a client pre-registered in the config
 * (`oauth.clientId`, `oauth.clientSecret`) is used as it is, with no dynamic registration; its secret authenticates
 * it at the token endpoint and never shows in the status, a log line or the store.
 */
// Fixtures first: hooks run in reverse, so every manager is closed before the servers it talks to.
const fixtures = useOAuthFixtures();
const { createManager } = useManagers();

const clientSecret = 'pre-registered-client-secret-0123456789';

describe.each(protocolChoices)('a pre-registered client (protocol %s)', (_name, protocol) => {
  it('confidential: no registration, client_secret_basic at the token endpoint, the secret shown nowhere', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair({
      authorizationServer: { dynamicRegistration: false },
    });
    await authorizationServer.registerClient({
      client_id: 'search-mcp-test',
      client_secret: clientSecret,
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const store = createRecordingOAuthStore();
    const { manager, records } = createManager(
      {
        remote: {
          url: mcpServer.url.href,
          ...protocol,
          oauth: { clientId: 'search-mcp-test', clientSecret, scopes: ['mcp:read', 'mcp:write'] },
        },
      },
      { oauth: { openAuthorizationUrl: followingOpener(), store } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    expect(authorizationServer.activity.registrations).toBe(0);
    expect(authorizationServer.activity.lastAuthorizationParams).toMatchObject({ client_id: 'search-mcp-test' });
    expect(authorizationServer.activity.lastTokenRequest).toMatchObject({
      grantType: 'authorization_code',
      clientAuthentication: 'client_secret_basic',
    });
    const whoami = JSON.parse(textOf(await manager.callTool('remote', 'whoami'))) as Record<string, string>;
    expect(whoami.client_id).toBe('search-mcp-test');
    // The config's scopes were asked for (and so `write_note` needs no step-up).
    expect(whoami.scope?.split(' ')).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(textOf(await manager.callTool('remote', 'write_note', { text: 'x' }))).toBe('noted: x');
    expect(authorizationServer.activity.authorizations).toBe(1);
    // The config's client is not copied into the store.
    expect(Object.keys(storedCredentials(store, 'remote')?.clients ?? {})).toEqual([]);

    const secrets = [clientSecret, ...secretsEverStored(store)];
    expectNoSecret(manager.status(), secrets);
    expectNoSecret(records, secrets);
    expectNoSecret([...store.values.values()], [clientSecret]);
  });

  it('public: no registration, the client id in the token request', async () => {
    const { authorizationServer, mcpServer } = await fixtures.startPair({
      authorizationServer: { dynamicRegistration: false },
    });
    await authorizationServer.registerClient({
      client_id: 'search-mcp-public',
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    const { manager } = createManager(
      { remote: { url: mcpServer.url.href, ...protocol, oauth: { clientId: 'search-mcp-public' } } },
      { oauth: { openAuthorizationUrl: followingOpener(), store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    expect(authorizationServer.activity.registrations).toBe(0);
    expect(authorizationServer.activity.lastTokenRequest).toMatchObject({ clientAuthentication: 'none' });
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('search-mcp-public');
  });
});
