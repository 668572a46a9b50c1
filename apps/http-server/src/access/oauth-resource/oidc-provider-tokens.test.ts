import { type AuthorizationServer, startAuthorizationServer } from '@search-mcp/test-kit/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthTokenVerifier } from './oauth-token-verifier.js';

// A real authorization server (oidc-provider, from the test kit): its tokens are JWT access tokens (RFC 9068) whose
// `aud` is the `resource` the client asked for (RFC 8707), signed RS256 with the key its JWKS publishes.
const resource = 'http://127.0.0.1:9/mcp';
const otherResource = 'http://127.0.0.1:9/another-mcp';
const client = { client_id: 'search-mcp-resource-test', client_secret: 'a-secret-of-the-test' };

let authorizationServer: AuthorizationServer;

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  authorizationServer.allowResource(resource);
  authorizationServer.allowResource(otherResource);
  // A machine client: the client credentials grant needs no user and no browser.
  await authorizationServer.registerClient({ ...client, redirect_uris: [], grant_types: ['client_credentials'] });
});

afterAll(async () => {
  await authorizationServer?.close();
});

async function clientCredentialsToken(forResource: string, scope: string): Promise<string> {
  const metadata = (await (await fetch(authorizationServer.metadataUrl)).json()) as { token_endpoint: string };
  const response = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: forResource, scope }),
  });
  const body = (await response.json()) as { access_token?: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.access_token as string;
}

describe('tokens of a real authorization server (oidc-provider)', () => {
  it('verifies a token issued for this resource, found through the issuer metadata and its JWKS', async () => {
    const token = await clientCredentialsToken(resource, 'mcp:read mcp:write');
    const verifier = createOAuthTokenVerifier({
      issuer: authorizationServer.issuer,
      audiences: [resource],
      requiredScopes: ['mcp:read'],
    });
    const check = await verifier.verify(token);
    expect(check).toMatchObject({ valid: true, principal: { clientId: client.client_id } });
    if (check.valid) {
      expect(check.principal.scopes.sort()).toEqual(['mcp:read', 'mcp:write']);
      expect(check.principal.subject).not.toBe('');
    }
  });

  it('refuses a token issued for another resource (401 invalid_token, never passed on)', async () => {
    const token = await clientCredentialsToken(otherResource, 'mcp:read');
    const verifier = createOAuthTokenVerifier({ issuer: authorizationServer.issuer, audiences: [resource] });
    const check = await verifier.verify(token);
    expect(check).toMatchObject({
      valid: false,
      status: 401,
      error: 'invalid_token',
      description: 'the token was issued for another resource',
      reason: `audience ${otherResource} is not this resource (${resource})`,
    });
  });

  it('refuses a token of this resource lacking a required scope with 403 insufficient_scope', async () => {
    const token = await clientCredentialsToken(resource, 'mcp:read');
    const verifier = createOAuthTokenVerifier({
      issuer: authorizationServer.issuer,
      audiences: [resource],
      requiredScopes: ['mcp:admin'],
    });
    expect(await verifier.verify(token)).toMatchObject({ valid: false, status: 403, scope: 'mcp:admin' });
  });
});
