/**
 * Remote servers that cannot be reached say why and what to do (doctor's "Why" column): real sockets on 127.0.0.1,
 * a name under `.invalid` (never resolves, RFC 2606), an HTTPS server with a self-signed certificate, and an HTTP
 * server answering 404 and 401.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useManagers } from '../../test/manager-harness.js';
import { networkErrorCode } from './network-failure.js';

const { createManager } = useManagers();
const fixture = (name: string) => readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url));

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('remote connection failures explain themselves', () => {
  let http: Server;
  let https: Server;
  let httpPort: number;
  let httpsPort: number;
  let closedPort: number;

  beforeAll(async () => {
    http = createHttpServer((request, response) => {
      if (request.url?.startsWith('/private'))
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      else if (request.url?.startsWith('/forbidden')) response.writeHead(403).end('Forbidden');
      else response.writeHead(404).end('Not Found');
    });
    https = createHttpsServer(
      { key: fixture('self-signed-test-key.pem'), cert: fixture('self-signed-test-cert.pem') },
      (_request, response) => response.writeHead(404).end(),
    );
    [httpPort, httpsPort] = await Promise.all([listen(http), listen(https)]);
    // A port that was just free: nothing listens there now.
    const probe = createHttpServer();
    closedPort = await listen(probe);
    await close(probe);
  });

  afterAll(async () => {
    await Promise.all([close(http), close(https)]);
  });

  it('names the cause and the fix of each, keeping the original error as the cause', async () => {
    const { manager } = createManager({
      refused: { url: `http://127.0.0.1:${closedPort}/mcp` },
      'refused-sse': { type: 'sse', url: `http://127.0.0.1:${closedPort}/sse` },
      unresolvable: { url: 'http://search-mcp-test.invalid/mcp' },
      'self-signed': { url: `https://127.0.0.1:${httpsPort}/mcp` },
      'plain-http': { url: `https://127.0.0.1:${httpPort}/mcp` },
      // A secret in the query (an API key some servers take there) is never shown: only the origin and the path.
      'no-endpoint': { url: `http://127.0.0.1:${httpPort}/nothing-here?api_key=query-secret-123#fragment-secret` },
      private: { url: `http://127.0.0.1:${httpPort}/private/mcp`, oauth: false },
      forbidden: { url: `http://127.0.0.1:${httpPort}/forbidden/mcp`, oauth: false },
    });
    await manager.startAll();
    const reason = (id: string) => manager.status().find((status) => status.id === id)?.lastError ?? '';
    expect(reason('refused')).toBe(
      `MCP server 'refused' cannot connect: nothing listens on 127.0.0.1:${closedPort} (ECONNREFUSED) — is the ` +
        'server running, and is the port in its "url" right?',
    );
    expect(reason('refused-sse')).toContain(`nothing listens on 127.0.0.1:${closedPort} (ECONNREFUSED)`);
    expect(reason('unresolvable')).toMatch(
      /cannot connect: the host name "search-mcp-test\.invalid" (does not resolve \(ENOTFOUND\)|could not be looked up \(EAI_AGAIN\)) — check the URL in its "url"/,
    );
    expect(reason('self-signed')).toContain(
      `the TLS certificate of 127.0.0.1:${httpsPort} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT) — if it is signed`,
    );
    expect(reason('self-signed')).toContain('set NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    expect(reason('plain-http')).toContain('the server may speak plain http: check the scheme in its "url"');
    expect(reason('no-endpoint')).toContain(
      `HTTP 404 at http://127.0.0.1:${httpPort}/nothing-here: the URL has no MCP endpoint — servers usually serve /mcp`,
    );
    expect(reason('no-endpoint')).not.toContain('query-secret-123');
    expect(reason('no-endpoint')).not.toContain('fragment-secret');
    expect(reason('private')).toContain('HTTP 401 at');
    expect(reason('private')).toContain('offers no OAuth — put its token in "headers"');
    expect(reason('forbidden')).toContain('HTTP 403 at');
    expect(reason('forbidden')).toContain('check the token in its "headers"');
    // The SDK's error (and undici's under it) stays the cause, for logs and callers that read it.
    const failure = (await manager.start('refused').catch((error: unknown) => error)) as Error;
    expect(failure.message).toContain('(ECONNREFUSED)');
    expect(networkErrorCode(failure.cause)).toBe('ECONNREFUSED');
    expect(String((failure.cause as Error).message)).not.toContain('ECONNREFUSED');
  }, 60_000);
});
