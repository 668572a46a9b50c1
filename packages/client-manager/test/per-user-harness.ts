import type { AuthorizationServer, ProtectedMcpServer } from '@search-mcp/test-kit/oauth';
import { expect } from 'vitest';
import type { AuthorizationOpener, McpClientManager, McpClientManagerOptions } from '../src/index.js';
import type { Managers } from './manager-harness.js';
import { createRecordingOAuthStore, textOf, type OAuthFixtures, type RecordingOAuthStore } from './oauth-harness.js';

/** Where the host (`search-mcp-http`) would receive authorization redirects; the tests never go there. */
export const redirectUrl = 'http://127.0.0.1:1/oauth/callback';

export interface PerUserSetup {
  manager: McpClientManager;
  authorizationServer: AuthorizationServer;
  mcpServer: ProtectedMcpServer;
  store: RecordingOAuthStore;
}

/**
 * A real authorization server, the MCP server it protects as `remote` with `identity: "per-user"`, and a manager that
 * never opens a browser (a per-user caller is elsewhere: the host's redirect URL is the only way back).
 */
export async function setUpPerUser(
  fixtures: OAuthFixtures,
  managers: Managers,
  options: Pick<McpClientManagerOptions, 'perUser'> & {
    redirectUrl?: string | undefined;
    /** The entry's `protocol`, when not the default. */
    protocol?: string;
    /** The manager's opener (default `false`): a per-user caller's authorization must never use it. */
    openAuthorizationUrl?: AuthorizationOpener;
  } = {},
): Promise<PerUserSetup> {
  const { authorizationServer, mcpServer } = await fixtures.startPair({ authorizationServer: { subject: 'alice' } });
  const store = createRecordingOAuthStore();
  const { manager } = managers.createManager(
    {
      remote: {
        url: mcpServer.url.href,
        identity: 'per-user',
        ...(options.protocol ? { protocol: options.protocol } : {}),
      },
    },
    {
      oauth: {
        openAuthorizationUrl: options.openAuthorizationUrl ?? false,
        store,
        redirectUrl: () => ('redirectUrl' in options ? options.redirectUrl : redirectUrl),
      },
      ...(options.perUser ? { perUser: options.perUser } : {}),
    },
  );
  return { manager, authorizationServer, mcpServer, store };
}

/** The person's browser: follows the authorization URL until the redirect to the host's callback, not going there. */
export async function redirectOf(authorizationUrl: string): Promise<URLSearchParams> {
  let next = new URL(authorizationUrl);
  for (let hop = 0; hop < 20 && !next.href.startsWith(redirectUrl); hop += 1) {
    const response = await fetch(next, { redirect: 'manual' });
    await response.body?.cancel();
    next = new URL(response.headers.get('location') ?? '', next);
  }
  expect(next.href.startsWith(redirectUrl), 'the browser came back to the host').toBe(true);
  return next.searchParams;
}

/** `subject` authorizes `remote` with their own account through the host's flow (begin, browser, complete). */
export async function authorizeAs(setup: PerUserSetup, subject: string): Promise<void> {
  setup.authorizationServer.signInAs(subject);
  const { authorizationUrl } = await setup.manager.beginAuthorization('remote', { redirectUrl, subject });
  expect(authorizationUrl).toBeDefined();
  const status = await setup.manager.completeAuthorization(await redirectOf(authorizationUrl as string));
  expect(status.state, status.lastError).toBe('running');
}

/** `whoami` as `subject`: the `sub` the protected server saw in the token. */
export async function whoamiAs(manager: McpClientManager, subject: string): Promise<string> {
  const result = await manager.callTool('remote', 'whoami', {}, { subject });
  return (JSON.parse(textOf(result)) as { sub: string }).sub;
}

/** The subjects of the per-user credentials stored, by the `sub` of their access token. */
export function storedSubjects(store: RecordingOAuthStore): { key: string; sub: string | undefined }[] {
  return [...store.values].map(([key, value]) => {
    const entry = JSON.parse(value) as { latestIssuer?: string; tokens: Record<string, { access_token: string }> };
    const token = entry.latestIssuer !== undefined ? entry.tokens[entry.latestIssuer]?.access_token : undefined;
    const payload = token?.split('.')[1];
    const sub = payload
      ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub
      : undefined;
    return { key, sub };
  });
}
