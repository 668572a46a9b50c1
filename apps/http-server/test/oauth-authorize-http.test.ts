/**
 * OAuth to a backend through the built `search-mcp-http` (README, "Backend servers and OAuth"): a real authorization
 * server (oidc-provider) protecting a real MCP server, from `@search-mcp/test-kit/oauth`. The app opens no browser, so
 * the server waits in `needs-auth`; an admin asks `POST /v1/servers/:id/authorize` for the URL, a "browser" (fetch
 * following redirects; the fixture logs its test user in) goes there and lands on `/oauth/callback`, and the server
 * is then connected, its tools listed and callable over REST and MCP. Tokens go to the file named by
 * `SEARCH_MCP_OAUTH_FILE` and must never appear in a response body or on stderr.
 */
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type AuthorizationServer,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '@search-mcp/test-kit/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import {
  eventually,
  type JsonResponse,
  mcpClient,
  type RequestInit,
  request,
  storedOAuthTokens,
  temporaryDirectory,
} from './http-test-support.js';

const adminToken = 'admin-token-0123456789-abcdefghijklmnop';
const webToken = 'web-token-0123456789-abcdefghijklmnopqr';
/** Generous: the suite runs on 2 busy cores in CI. */
const stepTimeoutMs = 60_000;

let directory: { path: string; remove: () => Promise<void> };
let oauthFile: string;
let authorizationServer: AuthorizationServer;
let mcpServer: ProtectedMcpServer;
let app: CliProcess;
const clients: Client[] = [];
/** Every response body the app sent in this file, to look for tokens in. */
const bodies: string[] = [];

async function call(path: string, init: RequestInit = {}): Promise<JsonResponse> {
  const response = await request(app.url, path, { token: adminToken, ...init });
  bodies.push(JSON.stringify(response.body ?? null));
  return response;
}

/** The words of an HTML page, as a person reads them (tags dropped, character references decoded). */
function wordsOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ');
}

/** A browser: follows every redirect and reads the page it ends on. */
async function browse(url: string): Promise<{ status: number; url: string; text: string; headers: Headers }> {
  const response = await fetch(url, { redirect: 'follow' });
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, url: response.url, text: wordsOf(text), headers: response.headers };
}

async function secureStatus() {
  return (await call('/v1/servers/secure')).body ?? {};
}

/** The text of a tool result (REST `result`, or an MCP `CallToolResult`). */
function textOf(result: { content?: Array<{ type: string; text?: string }> } | undefined): string {
  return (result?.content ?? []).map((part) => part.text ?? '').join('\n');
}

beforeAll(async () => {
  directory = await temporaryDirectory();
  oauthFile = join(directory.path, 'oauth', 'credentials.json');
  authorizationServer = await startAuthorizationServer();
  mcpServer = await startProtectedMcpServer({ authorizationServer });
  const configFile = join(directory.path, 'mcp-servers.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: { secure: { url: mcpServer.url.href } },
      auth: {
        tokens: [
          { id: 'admin', token: adminToken },
          { id: 'web', token: webToken, projects: ['web'] },
        ],
      },
    }),
  );
  // Debug logging: the most the app ever writes, all of it searched for tokens at the end.
  app = await startCli(['--config', configFile, '--port', '0', '--no-watch', '--log-level', 'debug'], {
    ...process.env,
    SEARCH_MCP_OAUTH_FILE: oauthFile,
  });
  clients.push((await mcpClient(app.url, { authorization: `Bearer ${adminToken}` })).client);
}, stepTimeoutMs);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGTERM');
    await app.exited;
  }
  await mcpServer?.close();
  await authorizationServer?.close();
  await directory?.remove();
});

describe('search-mcp-http: OAuth to a backend server', () => {
  it(
    'waits in needs-auth without opening a browser; /v1/servers says so and what fixes it',
    async () => {
      const status = await eventually(async () => {
        const body = await secureStatus();
        return body.state === 'needs-auth' ? body : undefined;
      });
      expect(status).toMatchObject({ id: 'secure', state: 'needs-auth', oauth: { state: 'needs-auth' } });
      expect(status.lastError).toContain('search-mcp auth secure');
      expect(status).not.toHaveProperty('pid');
      const list = await call('/v1/servers');
      expect(list.status).toBe(200);
      expect(list.body?.servers).toEqual([expect.objectContaining({ id: 'secure', state: 'needs-auth' })]);
      expect(authorizationServer.activity.registrations).toBe(0);
      expect(app.stderr()).not.toMatch(/xdg-open|opening .*browser/i);
    },
    stepTimeoutMs,
  );

  it(
    'answers a call to its tools with how to authorize it, over REST and over MCP',
    async () => {
      const rest = await call('/v1/tools/call', { body: { name: 'secure:whoami', parameters: {} } });
      expect(rest.status).toBe(503);
      expect(rest.body).toMatchObject({ success: false, code: 'SERVER_NOT_RUNNING' });
      expect(rest.body?.error).toContain('search-mcp auth secure');
      expect(rest.body?.error).toContain('POST /v1/servers/secure/authorize');

      const client = clients[0] as Client;
      const message = await client
        .callTool({ name: 'tool_execute', arguments: { toolKey: 'secure:whoami', arguments: {} } })
        .then(
          (result) => {
            expect(result.isError).toBe(true);
            return textOf(result as Parameters<typeof textOf>[0]);
          },
          (error: unknown) => String(error),
        );
      bodies.push(message);
      expect(message).toContain('search-mcp auth secure');
    },
    stepTimeoutMs,
  );

  it(
    'lets only admin tokens start an authorization, and hides the server from other projects',
    async () => {
      const anonymous = await call('/v1/servers/secure/authorize', { method: 'POST', token: null });
      expect(anonymous.status).toBe(401);
      const limited = await call('/v1/servers/secure/authorize', { method: 'POST', token: webToken });
      expect(limited.status).toBe(403);
      expect(limited.body?.error).toContain('admin token');
      const inProject = await call('/v1/servers/secure/authorize', {
        method: 'POST',
        token: webToken,
        headers: { 'x-project-id': 'web' },
      });
      expect(inProject.status).toBe(403);
      expect((await call('/v1/servers/nothing/authorize', { method: 'POST' })).status).toBe(404);
      // `secure` belongs to no project: a caller of project `web` does not see it at all.
      const webList = await call('/v1/servers', { token: webToken, headers: { 'x-project-id': 'web' } });
      expect(webList.body?.servers).toEqual([]);
      expect((await call('/v1/servers/secure', { token: webToken, headers: { 'x-project-id': 'web' } })).status).toBe(
        404,
      );
      expect(authorizationServer.activity.registrations).toBe(0);
      expect((await secureStatus()).state).toBe('needs-auth');
    },
    stepTimeoutMs,
  );

  it(
    'authorizes through the endpoint and the callback; then the tools are listed and callable over REST and MCP',
    async () => {
      const started = await call('/v1/servers/secure/authorize', { method: 'POST' });
      expect(started.status).toBe(200);
      expect(started.body?.serverId).toBe('secure');
      const authorizationUrl = new URL(started.body?.authorizationUrl as string);
      expect(authorizationUrl.origin).toBe(authorizationServer.issuer);
      expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${app.url}/oauth/callback`);
      expect(authorizationUrl.searchParams.get('resource')).toBe(mcpServer.url.href);
      expect((await secureStatus()).oauth).toEqual({ state: 'pending' });

      // A redirect with another state (old, or forged) changes nothing, and echoes nothing it was sent.
      const forged = await browse(`${app.url}/oauth/callback?code=forged-code-7731&state=forged-state-7731`);
      expect(forged.status).toBe(400);
      expect(forged.headers.get('content-type')).toMatch(/^text\/html/);
      expect(forged.text).toContain('Nothing was changed');
      expect(forged.text).not.toContain('7731');
      expect(authorizationServer.activity.tokenRequests.authorization_code ?? 0).toBe(0);
      expect((await secureStatus()).oauth).toEqual({ state: 'pending' });

      // The person's browser: the authorization server logs the test user in and sends it back to the app.
      const landed = await browse(authorizationUrl.href);
      expect(new URL(landed.url).pathname).toBe('/oauth/callback');
      expect(landed.status).toBe(200);
      expect(landed.text).toContain("Search MCP may now reach the MCP server 'secure', and it is connected");
      expect(landed.headers.get('cache-control')).toBe('no-store');

      const status = await secureStatus();
      expect(status).toMatchObject({ state: 'running', oauth: { state: 'authorized', refreshable: true } });
      expect(status.oauth.issuer).toBe(authorizationServer.issuer);

      const tools = await call('/v1/tools?server=secure');
      expect(tools.body?.tools.map((tool: { toolKey: string }) => tool.toolKey).sort()).toEqual([
        'secure:whoami',
        'secure:write_note',
      ]);
      const rest = await call('/v1/tools/call', { body: { name: 'secure:whoami', parameters: {} } });
      expect(rest.status).toBe(200);
      expect(JSON.parse(textOf(rest.body?.result))).toMatchObject({
        sub: authorizationServer.subject,
        aud: mcpServer.url.href,
      });

      const client = clients[0] as Client;
      const overMcp = await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'secure:whoami', arguments: {} },
      });
      const text = textOf(overMcp as Parameters<typeof textOf>[0]);
      bodies.push(text);
      expect(overMcp.isError).toBeFalsy();
      expect(text).toContain(authorizationServer.subject);
      expect(text).toContain(mcpServer.url.href);
    },
    stepTimeoutMs,
  );

  it(
    'keeps the tokens in the 0600 file only: in no response body, and not on stderr',
    async () => {
      expect((await stat(oauthFile)).mode & 0o777).toBe(0o600);
      const tokens = await storedOAuthTokens(oauthFile);
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      const everything = [...bodies, app.stderr()].join('\n');
      for (const token of tokens) expect(everything).not.toContain(token);
      // The log said the authorization completed (so the search above covered that moment).
      expect(app.stderr()).toContain('OAuth authorization complete');
    },
    stepTimeoutMs,
  );
});
