/**
 * Search MCP as an OAuth-protected resource, with each caller's own account upstream (docs/oauth-in-front.md), through
 * the built `search-mcp-http`: a real authorization server (oidc-provider) that logs in two users, a GitHub-like MCP
 * server it protects (its `whoami` answers the subject of the token it was called with), and MCP clients that log in
 * with the client SDK's OAuth provider. The backend is `identity: "per-user"`: alice and bob each authorize it with
 * their own account and see their own data; a token of one is never used for the other.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import {
  type AuthorizationServer,
  type CallbackListener,
  connectWithLogin,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startCallbackListener,
  startProtectedMcpServer,
} from '@search-mcp/test-kit/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { readJsonLines, request, storedOAuthTokens, temporaryDirectory } from './http-test-support.js';

const adminToken = 'admin-token-0123456789-abcdefghijklmnop';
/** Generous: the suite runs on 2 busy cores in CI. */
const stepTimeoutMs = 60_000;

let directory: { path: string; remove: () => Promise<void> };
let auditFile: string;
let oauthFile: string;
let authorizationServer: AuthorizationServer;
let github: ProtectedMcpServer;
let app: CliProcess;
let listener: CallbackListener;
const clients = new Map<string, Client>();
const accessTokens = new Map<string, string>();
/** Every body the app sent in this file, to look for tokens in. */
const bodies: string[] = [];

/** The text of a tool result. */
function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? '').join('\n');
}

/** A browser: follows every redirect and reads the page it ends on. */
async function browse(url: string): Promise<{ status: number; url: string; text: string }> {
  const response = await fetch(url, { redirect: 'follow' });
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, url: response.url, text };
}

/** `user` logs in to search-mcp-http from an MCP client (the SDK's OAuth provider). */
async function logIn(user: string, capabilities: ClientCapabilities = {}): Promise<Client> {
  authorizationServer.signInAs(user);
  const { client, provider } = await connectWithLogin(new URL(`${app.url}/mcp`), listener, capabilities);
  clients.set(user, client);
  accessTokens.set(user, provider.stored?.access_token ?? '');
  return client;
}

async function whoami(user: string): Promise<{ isError: boolean; text: string }> {
  const client = clients.get(user) as Client;
  const result = await client.callTool({
    name: 'tool_execute',
    arguments: { toolKey: 'github:whoami', arguments: {} },
  });
  const text = textOf(result);
  bodies.push(text);
  return { isError: result.isError === true, text };
}

/** The link a per-user server's first call answers (the authorization server's URL with a `state`). */
function linkIn(text: string): string {
  const link = /https?:\/\/\S+state=[^\s)"']+/.exec(text)?.[0];
  if (!link) throw new Error(`no authorization link in: ${text}`);
  return link;
}

beforeAll(async () => {
  directory = await temporaryDirectory();
  auditFile = join(directory.path, 'audit.jsonl');
  oauthFile = join(directory.path, 'oauth', 'credentials.json');
  authorizationServer = await startAuthorizationServer();
  github = await startProtectedMcpServer({ authorizationServer });
  listener = await startCallbackListener();
  const configFile = join(directory.path, 'mcp-servers.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: { github: { url: github.url.href, identity: 'per-user' } },
      auth: {
        tokens: [{ id: 'admin', token: adminToken }],
        oauth: { issuer: authorizationServer.issuer, requiredScopes: ['mcp:read'] },
      },
      audit: { file: auditFile },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0', '--no-watch', '--log-level', 'debug'], {
    ...process.env,
    SEARCH_MCP_OAUTH_FILE: oauthFile,
  });
  authorizationServer.allowResource(`${app.url}/mcp`);
}, stepTimeoutMs);

afterAll(async () => {
  for (const client of clients.values()) await client.close().catch(() => {});
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGTERM');
    await app.exited;
  }
  await listener?.close();
  await github?.close();
  await authorizationServer?.close();
  await directory?.remove();
});

describe('search-mcp-http behind OAuth: clients log in the standard way', () => {
  it('answers 401 naming its protected-resource metadata, which names the authorization server', async () => {
    const refused = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    const metadataUrl = `${app.url}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp:read"`);
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      resource: `${app.url}/mcp`,
      authorization_servers: [authorizationServer.issuer],
      scopes_supported: ['mcp:read'],
    });
  });

  it(
    'lets alice log in with the SDK client OAuth provider (discovery, registration, PKCE, resource)',
    async () => {
      const client = await logIn('alice');
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('tool_discovery');
      expect(listener.callbacks.at(-1)?.get('iss')).toBe(authorizationServer.issuer);
    },
    stepTimeoutMs,
  );

  it(
    "answers alice's first call of the per-user server with a link; once she authorizes it, she sees her own account",
    async () => {
      const discovery = await (clients.get('alice') as Client).callTool({
        name: 'tool_discovery',
        arguments: { query: 'who am I on GitHub' },
      });
      const { notice } = discovery.structuredContent as { notice?: string };
      expect(notice).toContain('github (each user authorizes it with their own account');
      const first = await whoami('alice');
      expect(first.isError).toBe(true);
      expect(first.text).toContain('github');
      authorizationServer.signInAs('alice');
      const page = await browse(linkIn(first.text));
      expect(page.status).toBe(200);
      expect(page.url.startsWith(`${app.url}/oauth/callback`)).toBe(true);
      const second = await whoami('alice');
      expect(second.isError).toBe(false);
      expect(JSON.parse(second.text)).toMatchObject({ sub: 'alice' });
    },
    stepTimeoutMs,
  );

  it(
    'gives bob his own link and his own account; alice keeps hers (tokens never mixed)',
    async () => {
      await logIn('bob');
      const first = await whoami('bob');
      expect(first.isError).toBe(true);
      authorizationServer.signInAs('bob');
      await browse(linkIn(first.text));
      expect(JSON.parse((await whoami('bob')).text)).toMatchObject({ sub: 'bob' });
      expect(JSON.parse((await whoami('alice')).text)).toMatchObject({ sub: 'alice' });
      expect(JSON.parse((await whoami('bob')).text)).toMatchObject({ sub: 'bob' });
      // At the backend: every session of it carried one user's tokens only, and both users came.
      const subjectsBySession = new Map<string, Set<string>>();
      for (const use of github.activity.tokenUses) {
        if (use.sessionId === undefined) continue;
        const seen = subjectsBySession.get(use.sessionId) ?? new Set<string>();
        seen.add(use.sub);
        subjectsBySession.set(use.sessionId, seen);
      }
      expect([...subjectsBySession.values()].every((subjects) => subjects.size === 1)).toBe(true);
      expect(new Set(github.activity.tokenUses.map((use) => use.sub))).toEqual(new Set(['alice', 'bob']));
      const servers = await request(app.url, '/v1/servers/github', { token: adminToken });
      expect(servers.body).toMatchObject({ id: 'github', perUser: { connections: 2 } });
    },
    stepTimeoutMs,
  );

  it(
    'asks a client that declared URL elicitation to send its user to the link (-32042), then the retry works',
    async () => {
      const client = await logIn('carol', { elicitation: { url: {} } });
      const failure = await client
        .callTool({ name: 'tool_execute', arguments: { toolKey: 'github:whoami', arguments: {} } })
        .then(
          () => undefined,
          (error: unknown) => error as { code?: number; data?: { elicitations?: Array<Record<string, unknown>> } },
        );
      expect(failure?.code).toBe(-32042);
      const [elicitation] = failure?.data?.elicitations ?? [];
      expect(elicitation).toMatchObject({ mode: 'url', elicitationId: expect.any(String) });
      authorizationServer.signInAs('carol');
      await browse(String(elicitation?.url));
      expect(JSON.parse((await whoami('carol')).text)).toMatchObject({ sub: 'carol' });
    },
    stepTimeoutMs,
  );

  it('takes the OAuth access token on REST too, beside static tokens; refuses a token minted for another resource', async () => {
    const alice = accessTokens.get('alice') as string;
    const tools = await request(app.url, '/v1/tools', { token: alice });
    expect(tools.status).toBe(200);
    expect((await request(app.url, '/v1/tools', { token: adminToken })).status).toBe(200);
    // A token the app holds for the GitHub-like server: issued by the same authorization server, for another resource.
    const [foreign] = await storedOAuthTokens(oauthFile, ['access_token']);
    expect(foreign).toBeDefined();
    if (foreign === undefined) return;
    const refused = await request(app.url, '/v1/tools', { token: foreign });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(JSON.stringify(refused.body)).not.toContain(foreign);
    expect(app.stderr()).not.toContain(foreign);
  });

  it(
    "lets only an admin authorize the per-user server's shared connection (?shared=true), as the operator's account",
    async () => {
      const path = '/v1/servers/github/authorize?shared=true';
      const refused = await request(app.url, path, { method: 'POST', token: accessTokens.get('alice') as string });
      expect(refused.status).toBe(403);
      const started = await request(app.url, path, { method: 'POST', token: adminToken });
      expect(started.status).toBe(200);
      authorizationServer.signInAs('operator');
      await browse(String(started.body?.authorizationUrl));
      const status = await request(app.url, '/v1/servers/github', { token: adminToken });
      expect(status.body).toMatchObject({ id: 'github', state: 'running', perUser: { connections: 3 } });
      // Callers with a token still run as themselves.
      expect(JSON.parse((await whoami('alice')).text)).toMatchObject({ sub: 'alice' });
    },
    stepTimeoutMs,
  );

  it('names the subject in the audit log, and never prints a token', async () => {
    const records = await readJsonLines(auditFile);
    const executes = records.filter((record) => record.event === 'tool_execute');
    expect(new Set(executes.map((record) => record.subject))).toEqual(new Set(['alice', 'bob', 'carol']));
    expect(executes.every((record) => record.tokenId === `oauth:${String(record.subject)}`)).toBe(true);
    for (const token of accessTokens.values()) {
      expect(token.length).toBeGreaterThan(20);
      expect(app.stderr()).not.toContain(token);
      for (const body of bodies) expect(body).not.toContain(token);
    }
  });
});
