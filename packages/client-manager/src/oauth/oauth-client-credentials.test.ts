import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import {
  createRecordingOAuthStore,
  expectNoSecret,
  protocolChoices,
  secretsEverStored,
  storedAccessToken,
  textOf,
  useOAuthFixtures,
} from '../../test/oauth-harness.js';

/**
 * OAuth without a person (docs/oauth.md, "Without a person"): `grant: "client_credentials"` gets the token from the
 * token endpoint of a real authorization server (oidc-provider) with the client's own credentials, a secret or a
 * private-key JWT (RFC 7523), and nobody is asked: the opener is never called, no loopback listens, and a token the
 * server no longer takes is replaced by a new one on the 401.
 */
// Fixtures first: hooks run in reverse, so every manager is closed before the servers it talks to.
const fixtures = useOAuthFixtures();
const { createManager } = useManagers();

const clientSecret = 'client-credentials-secret-0123456789';

/** An opener that must not be called: these grants have nobody to ask. */
function refusingOpener(): (url: URL) => never {
  return (url) => {
    throw new Error(`nobody should be asked to open ${url.href}`);
  };
}

async function startMachineServer(registration: Record<string, unknown>) {
  const pair = await fixtures.startPair({ authorizationServer: { dynamicRegistration: false } });
  await pair.authorizationServer.registerClient({
    client_id: 'search-mcp-machine',
    grant_types: ['client_credentials'],
    redirect_uris: [],
    ...registration,
  });
  return pair;
}

describe.each(protocolChoices)('client credentials (protocol %s)', (_name, protocol) => {
  it('a client secret: the token endpoint with client_secret_basic, no person, the secret shown nowhere', async () => {
    const { authorizationServer, mcpServer } = await startMachineServer({ client_secret: clientSecret });
    const store = createRecordingOAuthStore();
    const { manager, records } = createManager(
      {
        remote: {
          url: mcpServer.url.href,
          ...protocol,
          oauth: { grant: 'client_credentials', clientId: 'search-mcp-machine', clientSecret, scopes: 'mcp:read' },
        },
      },
      { oauth: { openAuthorizationUrl: refusingOpener(), store } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    expect(authorizationServer.activity.authorizations).toBe(0);
    expect(authorizationServer.activity.registrations).toBe(0);
    expect(authorizationServer.activity.lastTokenRequest).toMatchObject({
      grantType: 'client_credentials',
      clientAuthentication: 'client_secret_basic',
    });
    const whoami = JSON.parse(textOf(await manager.callTool('remote', 'whoami'))) as Record<string, string>;
    expect(whoami.client_id).toBe('search-mcp-machine');
    expect(statusOf(manager, 'remote')?.oauth).toMatchObject({ state: 'authorized', scope: 'mcp:read' });

    const secrets = [clientSecret, ...secretsEverStored(store)];
    expectNoSecret(manager.status(), secrets);
    expectNoSecret(records, secrets);
  });

  it('a private key: a signed client assertion (private_key_jwt) instead of a secret', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { authorizationServer, mcpServer } = await startMachineServer({
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' }] },
    });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const { manager } = createManager(
      {
        remote: {
          url: mcpServer.url.href,
          ...protocol,
          // A PEM kept on one line (an environment variable) with its line breaks written as `\n`.
          oauth: {
            grant: 'client_credentials',
            clientId: 'search-mcp-machine',
            privateKey: pem.replaceAll('\n', '\\n'),
            signingAlgorithm: 'ES256',
          },
        },
      },
      { oauth: { openAuthorizationUrl: refusingOpener(), store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    expect(authorizationServer.activity.lastTokenRequest).toMatchObject({
      grantType: 'client_credentials',
      clientAuthentication: 'private_key_jwt',
    });
    const whoami = JSON.parse(textOf(await manager.callTool('remote', 'whoami'))) as Record<string, string>;
    expect(whoami.client_id).toBe('search-mcp-machine');
  });
});

describe('client credentials, a token the server no longer takes', () => {
  it('is replaced by a new one from the token endpoint on the 401, with nobody asked (no refresh token needed)', async () => {
    const { authorizationServer, mcpServer } = await startMachineServer({ client_secret: clientSecret });
    const store = createRecordingOAuthStore();
    const { manager } = createManager(
      {
        remote: {
          url: mcpServer.url.href,
          oauth: { grant: 'client_credentials', clientId: 'search-mcp-machine', clientSecret },
        },
      },
      { oauth: { openAuthorizationUrl: false, store } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    const first = storedAccessToken(store, 'remote');
    const tokensBefore = authorizationServer.activity.tokenRequests.client_credentials ?? 0;
    authorizationServer.revokeAll();
    expect(textOf(await manager.callTool('remote', 'whoami'))).toContain('search-mcp-machine');
    expect(authorizationServer.activity.tokenRequests.client_credentials).toBe(tokensBefore + 1);
    expect(authorizationServer.activity.lastTokenRequest).toMatchObject({ grantType: 'client_credentials' });
    expect(storedAccessToken(store, 'remote')).not.toBe(first);
    expect(authorizationServer.activity.authorizations).toBe(0);
  });
});
