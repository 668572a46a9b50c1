/**
 * What the HTTP app's tests share: the app built over a real runtime (server-everything, the client-manager fixture,
 * this app's slow fixture, two in-process registries), on 127.0.0.1, and small REST and MCP clients.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolRegistry } from '@search-mcp/catalog';
import { createSearchMcpRuntime, type SearchMcpRuntime, type SearchMcpRuntimeOptions } from '@search-mcp/runtime';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { buildHttpApp, type HttpApp, type HttpAppOptions } from '../src/http-app.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const repoRoot = resolve(here, '../../..');
export const appRoot = resolve(here, '..');
export const cliEntry = join(appRoot, 'dist/cli.js');
export const everythingEntry = (() => {
  const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
  return join(
    dirname(manifestPath),
    Object.values((require(manifestPath) as { bin: Record<string, string> }).bin)[0] as string,
  );
})();
export const fixtureServer = fixtureServerPath('stdio-fixture-server.mjs');
export const slowServer = fixtureServerPath('slow-server.mjs');

export const mainToken = 'main-token-0123456789-abcdefghijklmnop';
export const alphaToken = 'alpha-token-0123456789-abcdefghijklmnop';

export interface Running {
  http: HttpApp;
  url: string;
  runtime: SearchMcpRuntime;
  close: () => Promise<void>;
}

export interface StartOptions {
  /** Backends: server-everything and the client-manager fixture (default), the slow fixture, or none. */
  backends?: 'standard' | 'slow' | 'none';
  /** Extra config (merged over the defaults). */
  config?: Record<string, unknown>;
  /** Where `audit.file` goes; default none. */
  auditFile?: string;
  app?: Partial<HttpAppOptions>;
  /** The client manager's options (e.g. `oauth`: a test never lets it open a browser or touch the keyring). */
  manager?: SearchMcpRuntimeOptions['manager'];
}

function projectRegistry(name: string): ToolRegistry {
  const registry = new ToolRegistry({ serverId: name, projects: [name], description: `Tools of project ${name}` });
  registry.register({ name: `${name}-report`, description: `Write the ${name} status report` }, () => `${name} report`);
  return registry;
}

const backendSets = {
  standard: {
    everything: { command: process.execPath, args: [everythingEntry], toolPermissions: { 'get-env': false } },
    fixture: { command: process.execPath, args: [fixtureServer], timeoutMs: 300 },
  },
  slow: { slow: { command: process.execPath, args: [slowServer] } },
  none: {},
};

/** The app over a real runtime, listening on 127.0.0.1 (random port), its backends started. */
export async function startApp(options: StartOptions = {}): Promise<Running> {
  const config = parseConfig({
    mcpServers: backendSets[options.backends ?? 'standard'],
    auth: {
      tokens: [
        { id: 'main', token: mainToken },
        { id: 'alpha-only', token: alphaToken, projects: ['alpha'] },
      ],
    },
    ...(options.auditFile ? { audit: { file: options.auditFile } } : {}),
    ...options.config,
  });
  const runtime = createSearchMcpRuntime({
    config,
    logger: silentLogger,
    registries: [projectRegistry('alpha'), projectRegistry('beta')],
    ...(options.manager ? { manager: options.manager } : {}),
  });
  await runtime.manager.startAll();
  const http = await buildHttpApp({
    runtime,
    logger: silentLogger,
    tokens: config.auth.tokens,
    allowAnonymous: false,
    version: 'test',
    ...options.app,
  });
  await http.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = http.app.server.address() as AddressInfo;
  return {
    http,
    runtime,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      // A close this slow is a bug (CI once saw this cleanup time out): the log says which half it was in.
      let phase = 'the HTTP app';
      const slow = setTimeout(() => {
        process.stderr.write(`startApp: closing ${phase} has taken over 10 s (${http.mcp.sessionCount} sessions)\n`);
      }, 10_000);
      try {
        await http.close();
        phase = 'the runtime';
        await runtime.close();
      } finally {
        clearTimeout(slow);
      }
    },
  };
}

export interface RequestInit {
  method?: string;
  /** Bearer token; default the main token, `null` for none. */
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the server sent
  body: Record<string, any> | undefined;
}

export async function request(base: string, path: string, init: RequestInit = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? mainToken}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers,
    redirect: 'manual',
    ...(init.signal ? { signal: init.signal } : {}),
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

export async function mcpClient(
  base: string,
  headers: Record<string, string> = { authorization: `Bearer ${mainToken}` },
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

export async function temporaryDirectory(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'search-mcp-http-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export async function readJsonLines(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Resolves with the first defined value of `check`, re-checking every 25 ms; rejects after `timeoutMs`. For what another
 * process writes to a file (audit lines, a backend's event log), where there is no event to await.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

/**
 * The OAuth tokens in a credentials file of the file store (its values are JSON texts themselves): `access_token` and
 * `refresh_token` values, or only the kinds named.
 */
export async function storedOAuthTokens(
  file: string,
  kinds: readonly string[] = ['access_token', 'refresh_token'],
): Promise<string[]> {
  const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
  const found: string[] = [];
  const walk = (value: unknown, key?: string): void => {
    if (typeof value === 'string') {
      if (key !== undefined && kinds.includes(key)) found.push(value);
      else if (value.startsWith('{')) walk(JSON.parse(value));
    } else if (value && typeof value === 'object') {
      for (const [name, inner] of Object.entries(value)) walk(inner, name);
    }
  };
  walk(stored);
  return found;
}
