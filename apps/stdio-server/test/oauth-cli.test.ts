/**
 * OAuth to a remote server through the built `search-mcp` (docs/oauth.md), against a real authorization server
 * (`oidc-provider`) protecting an MCP server that checks audience and scope with `jose`: a server that asks for a login
 * waits in `needs-auth` and every command says which command logs in; `search-mcp auth <server>` logs in through
 * `$BROWSER` (here a program that follows the URL, as a browser would) and the loopback redirect; calls then carry the
 * token, refreshed before it expires; a tool that needs more scope asks for a login again, which asks for the union of
 * scopes; `--logout` revokes and forgets. No token ever reaches stdout or stderr.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AuthorizationServer,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '@search-mcp/test-kit/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type ForwardingClient, startForwardingClient, textOf } from './forwarding-support.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const stepTimeoutMs = 120_000;

let directory: string;
let config: string;
let store: string;
let authorizationServer: AuthorizationServer;
let mcpServer: ProtectedMcpServer;
let environment: Record<string, string>;
/** Everything the CLI printed, to check that no token is ever in it. */
const printed: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args, '--config', config],
      { timeout: 120_000, env: { ...process.env, ...environment } },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        printed.push(stdout, stderr);
        resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
      },
    );
  });
}

/** Resolves once the stored access token has expired (its own `expires_in` from when it was saved). */
async function storedTokenExpired(): Promise<void> {
  const entries = JSON.parse(await readFile(store, 'utf8')) as Record<string, string>;
  let latest = 0;
  for (const value of Object.values(entries)) {
    const record = JSON.parse(value) as { tokens: Record<string, { savedAt: number; expires_in?: number }> };
    for (const saved of Object.values(record.tokens))
      latest = Math.max(latest, saved.savedAt + (saved.expires_in ?? 0) * 1000);
  }
  // The clock is the event here: the token's own lifetime, nothing shorter or longer.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, latest - Date.now() + 50)));
}

/** The tokens in the store file now (to look for them in what was printed). */
async function storedTokens(): Promise<string[]> {
  const entries = JSON.parse(await readFile(store, 'utf8')) as Record<string, string>;
  const tokens: string[] = [];
  for (const value of Object.values(entries)) {
    const record = JSON.parse(value) as { tokens: Record<string, { access_token: string; refresh_token?: string }> };
    for (const saved of Object.values(record.tokens)) {
      tokens.push(saved.access_token);
      if (saved.refresh_token) tokens.push(saved.refresh_token);
    }
  }
  return tokens;
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-oauth-cli-'));
  // Access tokens live 3 s: a call after that must renew the token (ahead of a request, or on its 401).
  authorizationServer = await startAuthorizationServer({ accessTokenTtlSeconds: 3 });
  mcpServer = await startProtectedMcpServer({ authorizationServer });
  config = join(directory, 'config.json');
  store = join(directory, 'oauth-credentials.json');
  await writeFile(config, JSON.stringify({ mcpServers: { remote: { url: mcpServer.url.href } } }));
  const browser = join(directory, 'browser.mjs');
  await writeFile(browser, "const page = await fetch(process.argv[2], { redirect: 'follow' });\nawait page.text();\n");
  environment = {
    SEARCH_MCP_OAUTH_FILE: store,
    BROWSER: `${process.execPath} ${browser}`,
    XDG_CONFIG_HOME: directory,
  };
}, stepTimeoutMs);

afterAll(async () => {
  await mcpServer?.close();
  await authorizationServer?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('search-mcp and an OAuth-protected remote server', { timeout: stepTimeoutMs }, () => {
  it('before a login: doctor, auth and a call say the server waits for `search-mcp auth remote`', async () => {
    // Three commands that only read the store, run side by side.
    const [doctor, states, call] = await Promise.all([
      runCli(['doctor', '--json']),
      runCli(['auth']),
      runCli(['call', 'remote:whoami']),
    ]);
    expect(doctor.code).toBe(1);
    const server = (JSON.parse(doctor.stdout) as { servers: Array<Record<string, unknown>> }).servers[0];
    expect(server).toMatchObject({ id: 'remote', state: 'needs-auth', oauth: { state: 'needs-auth' } });
    expect(String(server?.lastError)).toContain('run `search-mcp auth remote`');

    expect(states.code).toBe(1);
    expect(states.stdout).toMatch(/remote +needs-auth +needs-auth/);
    expect(states.stdout).toContain(`Tokens are kept in ${store}.`);

    expect(call.code).toBe(1);
    expect(call.stderr).toContain("MCP server 'remote' needs OAuth authorization: run `search-mcp auth remote`");
    // Nobody was sent to a browser by any of these.
    expect(authorizationServer.activity.authorizations).toBe(0);
  });

  it('auth remote logs in through the browser and the loopback redirect; the store is 0600', async () => {
    const login = await runCli(['auth', 'remote']);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain("'remote' is authorized");
    expect(login.stdout).toContain('scope "mcp:read"');
    expect(login.stderr).toContain("Authorize Search MCP to use the MCP server 'remote' by opening:");
    expect(authorizationServer.activity.authorizations).toBe(1);
    expect(authorizationServer.activity.registrations).toBe(1);
    const params = authorizationServer.activity.lastAuthorizationParams ?? {};
    expect(params).toMatchObject({ code_challenge_method: 'S256', resource: mcpServer.url.href });
    expect(String(params.redirect_uri)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect((await stat(store)).mode & 0o777).toBe(0o600);
  });

  it('a call carries the token (audience: the server); an expired one is refreshed without a new login', async () => {
    await storedTokenExpired();
    const refreshesBefore = authorizationServer.activity.tokenRequests.refresh_token ?? 0;
    const call = await runCli(['call', 'remote:whoami']);
    expect(call.code, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({ sub: 'test-user', aud: mcpServer.url.href, scope: 'mcp:read' });
    expect(authorizationServer.activity.tokenRequests.refresh_token ?? 0).toBeGreaterThan(refreshesBefore);
    expect(authorizationServer.activity.authorizations).toBe(1);
  });

  it('a tool that needs more scope asks for a login, which asks for the union of scopes; then it runs', async () => {
    const refused = await runCli(['call', 'remote:write_note', '{"text":"hello"}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('mcp:write');
    expect(refused.stderr).toContain('run `search-mcp auth remote`');

    const login = await runCli(['auth', 'remote']);
    expect(login.code, login.stderr).toBe(0);
    expect(String(authorizationServer.activity.lastAuthorizationParams?.scope)).toContain('mcp:read mcp:write');

    const written = await runCli(['call', 'remote:write_note', '{"text":"hello"}']);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain('noted: hello');
  });

  it('tool_discovery over stdio tells the model which command logs in; tool_execute names it too', async () => {
    const other = join(directory, 'other-config.json');
    await writeFile(other, JSON.stringify({ mcpServers: { locked: { url: mcpServer.url.href } } }));
    let session: ForwardingClient | undefined;
    try {
      // A client without URL elicitation: one with it is asked to authorize instead (oauth-elicitation-stdio.test.ts).
      session = await startForwardingClient(['--config', other], {
        env: environment,
        capabilities: { elicitation: { form: {} } },
      });
      const found = textOf(await callTool(session.client, 'tool_discovery', { query: 'who am i' }));
      expect(found).toContain('search-mcp auth locked');
      const run = await callTool(session.client, 'tool_execute', { toolKey: 'locked:whoami', arguments: {} });
      expect(run.isError).toBe(true);
      expect(textOf(run)).toContain('search-mcp auth locked');
    } finally {
      await session?.close();
    }
  });

  it('revoked at the authorization server: the call says to log in again', async () => {
    authorizationServer.revokeAll();
    const call = await runCli(['call', 'remote:whoami']);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain('run `search-mcp auth remote`');
    const login = await runCli(['auth', 'remote']);
    expect(login.code, login.stderr).toBe(0);
  });

  it('auth --logout revokes and forgets the tokens; the server waits for a login again', async () => {
    const tokens = await storedTokens();
    expect(tokens.length).toBeGreaterThan(0);
    const logout = await runCli(['auth', '--logout', 'remote']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toContain("Logged out of 'remote'");
    expect(await storedTokens()).toEqual([]);
    const call = await runCli(['call', 'remote:whoami']);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain('run `search-mcp auth remote`');
    // Every token ever issued in this file's runs stayed out of what the CLI printed.
    for (const token of tokens) expect(printed.join('\n')).not.toContain(token);
  });

  it('a wrong command line is a usage error', async () => {
    const [logoutAlone, unknown] = await Promise.all([runCli(['auth', '--logout']), runCli(['auth', 'nope'])]);
    expect(logoutAlone.code).toBe(2);
    expect(logoutAlone.stderr).toContain('--logout needs the server');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no server with id 'nope' is configured (remote servers: remote)");
  });
});
