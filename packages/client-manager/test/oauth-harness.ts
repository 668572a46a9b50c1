import { fixtureServer } from '@search-mcp/test-kit';
import {
  type AuthorizationServer,
  type AuthorizationServerOptions,
  type ProtectedMcpServer,
  type ProtectedMcpServerOptions,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '@search-mcp/test-kit/oauth';
import { afterEach, expect } from 'vitest';
import type { AuthorizationOpener, OAuthStore } from '../src/index.js';

/**
 * The parts of the OAuth tests (docs/oauth.md): a real authorization server (oidc-provider) and the MCP server it
 * protects, from `@search-mcp/test-kit/oauth`, closed after each test; an in-memory `OAuthStore` that remembers every
 * value it was given (so a test knows every token the manager ever held, to look for it where it must not be); an
 * opener that follows the authorization URL with `fetch`, as a person's browser would.
 */
export function useOAuthFixtures(): OAuthFixtures {
  const fixtures = createOAuthFixtures();
  afterEach(() => fixtures.close());
  return fixtures;
}

export type OAuthFixtures = ReturnType<typeof createOAuthFixtures>;

/** The OAuth fixture servers of one test (or of one concurrent test, see `oauth-test.ts`), closed by `close()`. */
export function createOAuthFixtures() {
  const closers: Array<() => Promise<void>> = [];
  return {
    async startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
      const authorizationServer = await startAuthorizationServer(options);
      closers.push(() => authorizationServer.close());
      return authorizationServer;
    },
    async startProtectedMcpServer(options: ProtectedMcpServerOptions): Promise<ProtectedMcpServer> {
      const mcpServer = await startProtectedMcpServer(options);
      closers.push(() => mcpServer.close());
      return mcpServer;
    },
    /** An authorization server and one MCP server it protects. */
    async startPair(
      options: {
        authorizationServer?: AuthorizationServerOptions;
        mcpServer?: Omit<ProtectedMcpServerOptions, 'authorizationServer'>;
      } = {},
    ): Promise<{ authorizationServer: AuthorizationServer; mcpServer: ProtectedMcpServer }> {
      const authorizationServer = await this.startAuthorizationServer(options.authorizationServer);
      const mcpServer = await this.startProtectedMcpServer({ authorizationServer, ...options.mcpServer });
      return { authorizationServer, mcpServer };
    },
    /** Closes `close` with the servers (a front or a redirecting server a test started beside them). */
    alsoClose(close: () => Promise<void>): void {
      closers.push(close);
    },
    /** Closes every server started so far. */
    async close(): Promise<void> {
      await Promise.all(closers.splice(0).map((close) => close()));
    },
  };
}

/** The protocol eras a remote server entry may ask for: each OAuth flow runs in all three. */
export const protocolChoices = [
  ['2025', { protocol: '2025' }],
  ['2026-07-28', { protocol: '2026-07-28' }],
  ['auto', {}],
] as const;

/** A plain stdio server beside the OAuth one: it must keep working whatever OAuth does. */
export const plainServer = fixtureServer('stdio-fixture-server.mjs');

export interface RecordingOAuthStore extends OAuthStore {
  readonly values: Map<string, string>;
  /** Every value ever set, in order (tokens replaced since included). */
  readonly history: string[];
}

export function createRecordingOAuthStore(): RecordingOAuthStore {
  const values = new Map<string, string>();
  const history: string[] = [];
  return {
    description: 'memory',
    values,
    history,
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
      history.push(value);
    },
    delete: async (key) => {
      values.delete(key);
    },
  };
}

/** The stored credentials of one server (the one entry whose key names it), parsed. */
export function storedCredentials(store: RecordingOAuthStore, serverId: string): StoredEntry | undefined {
  for (const [key, value] of store.values) {
    if (key.startsWith(`oauth:${serverId}:`)) return JSON.parse(value) as StoredEntry;
  }
  return undefined;
}

export interface StoredEntry {
  serverUrl: string;
  clients: Record<string, { client_id: string; client_secret?: string; redirect_uris?: string[] }>;
  tokens: Record<string, { access_token: string; refresh_token?: string; scope?: string; expires_in?: number }>;
  latestIssuer?: string;
}

/** The newest access token stored for a server. */
export function storedAccessToken(store: RecordingOAuthStore, serverId: string): string {
  const entry = storedCredentials(store, serverId);
  const token = entry?.latestIssuer !== undefined ? entry.tokens[entry.latestIssuer]?.access_token : undefined;
  if (token === undefined) throw new Error(`no access token stored for ${serverId}`);
  return token;
}

/** Every secret the store was ever given: access and refresh tokens, client secrets. */
export function secretsEverStored(store: RecordingOAuthStore): string[] {
  const secrets = new Set<string>();
  for (const value of store.history) {
    const entry = JSON.parse(value) as Partial<StoredEntry>;
    for (const tokens of Object.values(entry.tokens ?? {})) {
      secrets.add(tokens.access_token);
      if (tokens.refresh_token !== undefined) secrets.add(tokens.refresh_token);
    }
    for (const client of Object.values(entry.clients ?? {})) {
      if (client.client_secret !== undefined) secrets.add(client.client_secret);
    }
  }
  return [...secrets];
}

/** Asserts that none of `secrets` appears in `what` (anything JSON can hold). */
export function expectNoSecret(what: unknown, secrets: readonly string[]): void {
  const text = typeof what === 'string' ? what : JSON.stringify(what);
  for (const secret of secrets) expect(text.includes(secret), 'a token was found where it must not be').toBe(false);
}

/** The JWT claims of an access token (the fixture's tokens are JWTs), read without checking them. */
export function claimsOf(accessToken: string): Record<string, unknown> {
  const payload = accessToken.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export interface FollowingOpener extends AuthorizationOpener {
  /** The authorization URLs it was given. */
  readonly urls: URL[];
}

/**
 * An opener that follows the authorization URL with `fetch` (redirects followed), as a browser would: the fixture's
 * test user logs in and consents, and the last redirect lands on the manager's loopback listener. `rewrite` changes
 * the URL the browser comes back to before it is followed (a forged `state`, an `error`).
 */
export function followingOpener(
  options: {
    rewriteRedirect?: (redirect: URL) => URL;
    /** Runs (awaited) just before the redirect back to the loopback listener is followed. */
    beforeRedirect?: (redirect: URL) => Promise<void>;
  } = {},
): FollowingOpener {
  const urls: URL[] = [];
  const opener = async (authorizationUrl: URL) => {
    urls.push(authorizationUrl);
    const rewrite = options.rewriteRedirect ?? (options.beforeRedirect ? (redirect: URL) => redirect : undefined);
    if (!rewrite) {
      const response = await fetch(authorizationUrl, { redirect: 'follow' });
      await response.body?.cancel();
      return;
    }
    // Hop by hop, so the redirect back to the loopback listener can be changed before it is followed.
    let next = authorizationUrl;
    for (let hop = 0; hop < 20; hop += 1) {
      const response = await fetch(next, { redirect: 'manual' });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (location === null) return;
      next = new URL(location, next);
      if (next.hostname === '127.0.0.1' && next.pathname === '/callback') {
        await options.beforeRedirect?.(next);
        const back = await fetch(rewrite(next));
        await back.body?.cancel();
        return;
      }
    }
  };
  return Object.assign(opener, { urls });
}

/**
 * Polls until `check` is true, at a short interval, failing with `what` after `timeoutMs`: a bound for a test that
 * would otherwise hang, far enough above what a loaded machine takes (a reconnect, an OAuth flow) not to fail a slow run.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  return (result.content as Array<{ text: string }>)[0]?.text ?? '';
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, 'expected a failure').toBeInstanceOf(Error);
  return outcome as Error;
}
