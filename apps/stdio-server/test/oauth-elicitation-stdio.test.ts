/**
 * `serve` asks its AI client to authorize a backend (docs/oauth.md), through the built `search-mcp` over stdio with a
 * real 1.x SDK client (MCP 2025-11-25) and a real authorization server (`oidc-provider`) protecting an MCP server: a
 * client that declared `elicitation: { url: {} }` gets a URL-mode `elicitation/create`; following the URL (the
 * fixture logs its test user in) and accepting connects the server, whose tool then runs through `tool_execute`, and
 * `notifications/elicitation/complete` names the same elicitation. A client that declines, or one without the
 * capability, leaves the server in `needs-auth` with `search-mcp auth <server>` named. No browser is ever opened,
 * and no token reaches stdout or stderr.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type ClientCapabilities,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type AuthorizationServer,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '@search-mcp/test-kit/oauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callTool, cli, eventually, repoRoot, textOf, withDeadline } from './forwarding-support.js';

const stepTimeoutMs = 120_000;

let directory: string;
let store: string;
let browserMarker: string;
let environment: Record<string, string>;
const closers: Array<() => Promise<void>> = [];
/** Everything every `serve` wrote: protocol messages (stdout) and stderr, to look for tokens in. */
const printed: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-oauth-elicitation-'));
  store = join(directory, 'oauth-credentials.json');
  browserMarker = join(directory, 'browser-opened');
  // A "browser" that only leaves a mark: serve must never start one.
  const browser = join(directory, 'browser.mjs');
  await writeFile(
    browser,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(browserMarker)}, 'opened');\n`,
  );
  environment = {
    SEARCH_MCP_OAUTH_FILE: store,
    BROWSER: `${process.execPath} ${browser}`,
    XDG_CONFIG_HOME: directory,
    SEARCH_MCP_WATCH: '0',
  };
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** An authorization server and the MCP server it protects, closed after the test. */
async function startPair(): Promise<{ authorizationServer: AuthorizationServer; mcpServer: ProtectedMcpServer }> {
  const authorizationServer = await startAuthorizationServer();
  const mcpServer = await startProtectedMcpServer({ authorizationServer });
  closers.push(async () => {
    await mcpServer.close();
    await authorizationServer.close();
  });
  return { authorizationServer, mcpServer };
}

interface ServeSession {
  client: Client;
  stderr: string[];
  /** Every message the client received, as sent. */
  received: Array<Record<string, unknown>>;
  elicitations: Array<Record<string, unknown>>;
  /** Resolves with the first `elicitation/create` (already received or the next). */
  firstElicitation: Promise<Record<string, unknown>>;
  /** Resolves with the first `notifications/elicitation/complete`. */
  completed: Promise<Record<string, unknown>>;
}

/**
 * `search-mcp serve` with a config of one server `id` at `url`, and a 1.x SDK client declaring `capabilities`;
 * `answer` answers each `elicitation/create` (when the capabilities have elicitation).
 */
async function serve(
  id: string,
  url: URL,
  capabilities: ClientCapabilities,
  answer?: (params: Record<string, unknown>) => Promise<{ action: 'accept' | 'decline' | 'cancel' }>,
): Promise<ServeSession> {
  const config = join(directory, `${id}-config.json`);
  await writeFile(config, JSON.stringify({ mcpServers: { [id]: { url: url.href } } }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'serve', '--config', config],
    cwd: repoRoot,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...environment },
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString());
    printed.push(chunk.toString());
  });
  const received: Array<Record<string, unknown>> = [];
  // Every message, before the SDK handles it (the client sets its handler when it starts the transport).
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const handle = transport.onmessage;
    transport.onmessage = (message) => {
      received.push(message as Record<string, unknown>);
      printed.push(JSON.stringify(message));
      handle?.(message);
    };
    await start();
  };
  const client = new Client({ name: 'oauth-elicitation-test', version: '1' }, { capabilities });
  const elicitations: Array<Record<string, unknown>> = [];
  let elicited: (params: Record<string, unknown>) => void = () => {};
  const firstElicitation = new Promise<Record<string, unknown>>((resolve) => {
    elicited = resolve;
  });
  if (capabilities.elicitation && answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as Record<string, unknown>;
      elicitations.push(params);
      elicited(params);
      return answer(params);
    });
  }
  let complete: (params: Record<string, unknown>) => void = () => {};
  const completed = new Promise<Record<string, unknown>>((resolve) => {
    complete = resolve;
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, async (notification) => {
    complete(notification.params as Record<string, unknown>);
  });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, stderr, received, elicitations, firstElicitation, completed };
}

/** The tokens in the store file now. */
async function storedTokens(): Promise<string[]> {
  const entries = JSON.parse(await readFile(store, 'utf8')) as Record<string, string>;
  const tokens: string[] = [];
  for (const value of Object.values(entries)) {
    const record = JSON.parse(value) as { tokens?: Record<string, { access_token: string; refresh_token?: string }> };
    for (const saved of Object.values(record.tokens ?? {})) {
      tokens.push(saved.access_token);
      if (saved.refresh_token) tokens.push(saved.refresh_token);
    }
  }
  return tokens;
}

/** `tool_discovery`'s text, once it names the login command of `id` (the server waits in `needs-auth`). */
async function discoveryNamingLogin(session: ServeSession, id: string): Promise<string> {
  return eventually(async () => {
    const text = textOf(await callTool(session.client, 'tool_discovery', { query: 'who am i' }));
    return text.includes(`search-mcp auth ${id}`) ? text : undefined;
  }, `tool_discovery naming search-mcp auth ${id}`);
}

describe('serve asks its client to authorize a backend (URL elicitation)', { timeout: stepTimeoutMs }, () => {
  it('a client that follows the URL and accepts: the server connects, its tool runs, the elicitation completes', async () => {
    const { authorizationServer, mcpServer } = await startPair();
    const followed: Array<Promise<unknown>> = [];
    const session = await serve('remote', mcpServer.url, { elicitation: { url: {} } }, async (params) => {
      // As a client app would: the user agrees, and the URL opens in a browser (here fetch; the fixture logs in).
      followed.push(fetch(String(params.url), { redirect: 'follow' }).then((page) => page.text()));
      return { action: 'accept' };
    });

    const request = await withDeadline(session.firstElicitation, 'the elicitation/create');
    expect(request).toMatchObject({
      mode: 'url',
      message: "Authorize Search MCP to use the MCP server 'remote'",
      elicitationId: expect.any(String),
    });
    const authorizationUrl = new URL(String(request.url));
    expect(authorizationUrl.origin).toBe(new URL(authorizationServer.issuer).origin);
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcpServer.url.href);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const completion = await withDeadline(session.completed, 'notifications/elicitation/complete');
    expect(completion).toEqual({ elicitationId: request.elicitationId });
    await Promise.all(followed);

    const run = await callTool(session.client, 'tool_execute', { toolKey: 'remote:whoami', arguments: {} });
    expect(run.isError, textOf(run)).toBeFalsy();
    expect(JSON.parse(textOf(run))).toMatchObject({ sub: 'test-user', aud: mcpServer.url.href });
    expect(session.elicitations).toHaveLength(1);
    expect(authorizationServer.activity.authorizations).toBe(1);
    expect((await stat(store)).mode & 0o777).toBe(0o600);

    const tokens = await storedTokens();
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(printed.join('\n')).not.toContain(token);
    await expect(stat(browserMarker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a client that declines: the server waits in needs-auth, named with its login command, and is not asked again', async () => {
    const { authorizationServer, mcpServer } = await startPair();
    const session = await serve('declined', mcpServer.url, { elicitation: { url: {} } }, async () => ({
      action: 'decline',
    }));
    await withDeadline(session.firstElicitation, 'the elicitation/create');
    await discoveryNamingLogin(session, 'declined');

    // The call fails naming the command. Calls bring a reconnect (at most one a second), which meets the 401 again:
    // the client that declined is not asked again.
    const run = await callTool(session.client, 'tool_execute', { toolKey: 'declined:whoami', arguments: {} });
    expect(run.isError).toBe(true);
    expect(textOf(run)).toContain('search-mcp auth declined');
    const unauthorizedBefore = mcpServer.activity.unauthorized;
    await eventually(async () => {
      await callTool(session.client, 'tool_execute', { toolKey: 'declined:whoami', arguments: {} });
      return mcpServer.activity.unauthorized > unauthorizedBefore ? true : undefined;
    }, 'a reconnect after the calls');
    await discoveryNamingLogin(session, 'declined');
    expect(session.elicitations).toHaveLength(1);
    expect(authorizationServer.activity.authorizations).toBe(0);
    expect(session.received.some((message) => message.method === 'notifications/elicitation/complete')).toBe(false);
    await expect(stat(browserMarker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a client without elicitation.url is sent no elicitation: the server waits in needs-auth', async () => {
    const { authorizationServer, mcpServer } = await startPair();
    const session = await serve('formonly', mcpServer.url, { elicitation: { form: {} } }, async () => ({
      action: 'accept',
    }));
    await discoveryNamingLogin(session, 'formonly');
    const run = await callTool(session.client, 'tool_execute', { toolKey: 'formonly:whoami', arguments: {} });
    expect(run.isError).toBe(true);
    expect(textOf(run)).toContain('search-mcp auth formonly');
    expect(session.stderr.join('')).toContain('no client to ask for the OAuth authorization');
    expect(session.received.some((message) => message.method === 'elicitation/create')).toBe(false);
    expect(session.elicitations).toEqual([]);
    expect(authorizationServer.activity.authorizations).toBe(0);
    await expect(stat(browserMarker)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
