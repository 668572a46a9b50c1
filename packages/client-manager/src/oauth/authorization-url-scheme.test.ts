import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BackendAuthorizationError } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { useManagers } from '../../test/manager-harness.js';
import { createRecordingOAuthStore, failureOf } from '../../test/oauth-harness.js';

/**
 * A host hands the URL of `beginAuthorization` to a person's browser (the console opens it in a tab). It comes from
 * the authorization server's metadata: one naming a `javascript:` endpoint must be refused with a clear error.
 */
const { createManager } = useManagers();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A resource that asks for OAuth, and an authorization server whose authorization endpoint is `endpoint`. */
async function startHostileServer(endpoint: string): Promise<string> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const path = new URL(request.url ?? '/', origin).pathname;
    if (path.startsWith('/.well-known/oauth-protected-resource')) {
      return json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    }
    if (path.startsWith('/.well-known/oauth-authorization-server')) {
      return json({
        issuer: origin,
        authorization_endpoint: endpoint,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (path === '/register') {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ client_id: 'registered', redirect_uris: ['http://127.0.0.1:1/cb'] }));
      return;
    }
    response.writeHead(401, {
      'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('beginAuthorization with an authorization URL that is not http(s)', () => {
  // The SDK's metadata schema already refuses javascript:, data: and vbscript:; every other scheme is ours to refuse.
  it.each([
    ['javascript:alert(document.cookie)//', /javascript/],
    ['file:///etc/passwd', /not http\(s\) \(file:\)/],
    ['search-ms:query=invoice&crumb=location:\\\\attacker\\share', /not http\(s\) \(search-ms:\)/],
  ])('refuses %s with a clear error', async (endpoint, words) => {
    const url = await startHostileServer(endpoint);
    const { manager } = createManager(
      { remote: { url } },
      { oauth: { openAuthorizationUrl: false, store: createRecordingOAuthStore() } },
    );
    const failure = await failureOf(manager.beginAuthorization('remote', { redirectUrl: 'http://127.0.0.1:1/cb' }));
    expect(BackendAuthorizationError.isInstance(failure), String(failure)).toBe(true);
    expect(failure.message).toMatch(words);
    expect((failure as BackendAuthorizationError).authorizationUrl).toBeUndefined();
  });
});
