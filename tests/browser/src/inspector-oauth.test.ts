/**
 * The MCP Inspector, in headless Chromium, logs in to the built `search-mcp-http` with `auth.oauth`
 * (docs/oauth-in-front.md) the standard way (tests/browser/README.md): it connects, gets 401, reads the
 * protected-resource metadata, registers itself at the authorization server (dynamic registration), sends the
 * browser there, gets the code back at its `/oauth/callback`, exchanges it (PKCE, `resource`) and connects with the
 * token.
 */
import { type AuthorizationServer, startAuthorizationServer } from '@search-mcp/test-kit/oauth';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './chromium-executable.js';
import { type InspectorPage, connect, listTools, openInspectorPage, storedAccessToken } from './inspector-page.js';
import { type InspectorProcess, startInspector } from './inspector-process.js';
import { type SearchMcpHttpProcess, startSearchMcpHttp } from './search-mcp-http-process.js';

/** Generous: a cold Chromium and three servers on 2 busy CI cores. */
const stepTimeoutMs = 90_000;

let authorizationServer: AuthorizationServer;
let inspector: InspectorProcess;
let app: SearchMcpHttpProcess;
/** A second search-mcp-http on the same issuer: a token for it is a token for another resource. */
let other: SearchMcpHttpProcess | undefined;
let browser: Browser;
const pages: InspectorPage[] = [];

/** What went wrong on the way, for a failing assertion's message. */
function diagnostics(inspectorPage: InspectorPage): string {
  return [
    ...inspectorPage.problems(),
    `authorization server: ${JSON.stringify(authorizationServer.activity)}`,
    `inspector:\n${inspector.output().slice(-2000)}`,
    `search-mcp-http:\n${app.output().slice(-2000)}`,
  ].join('\n');
}

/** Counters of the authorization server, to compare before and after one log-in. */
function counts() {
  const { registrations, authorizations, authorizationFailures, tokenRequests, tokenFailures } =
    authorizationServer.activity;
  return {
    registrations,
    authorizations,
    authorizationFailures,
    codeExchanges: tokenRequests.authorization_code ?? 0,
    failedTokenRequests: Object.values(tokenFailures).reduce((sum, count) => sum + count, 0),
  };
}

/** Opens the Inspector on `serverUrl`, presses Connect and returns the page once the status settled. */
async function logIn(serverUrl: string): Promise<{ inspectorPage: InspectorPage; status: string }> {
  const inspectorPage = await openInspectorPage(browser, inspector.pageUrl(serverUrl));
  pages.push(inspectorPage);
  const status = await connect(inspectorPage, stepTimeoutMs);
  return { inspectorPage, status };
}

beforeAll(async () => {
  // First, so a machine without Chromium fails here with how to install it, before anything else starts.
  const executablePath = findChromium();
  authorizationServer = await startAuthorizationServer();
  inspector = await startInspector();
  app = await startSearchMcpHttp({ issuer: authorizationServer.issuer, corsOrigin: inspector.origin });
  authorizationServer.allowResource(`${app.url}/mcp`);
  browser = await puppeteer.launch({
    executablePath,
    // As root (CI runs as root) Chromium starts only without its sandbox.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}, stepTimeoutMs);

afterAll(async () => {
  for (const { page } of pages)
    await page
      .browserContext()
      .close()
      .catch(() => {});
  await browser?.close();
  await inspector?.close();
  await app?.close();
  await other?.close();
  await authorizationServer?.close();
});

describe('the MCP Inspector logs in with OAuth', () => {
  it(
    'to search-mcp-http: registers, authorizes with PKCE for the /mcp resource, connects and lists its tools',
    async () => {
      const before = counts();
      const { inspectorPage, status } = await logIn(`${app.url}/mcp`);
      expect(status, diagnostics(inspectorPage)).toBe('Connected');
      const after = counts();
      expect(after).toEqual({
        registrations: before.registrations + 1,
        authorizations: before.authorizations + 1,
        authorizationFailures: before.authorizationFailures,
        codeExchanges: before.codeExchanges + 1,
        failedTokenRequests: before.failedTokenRequests,
      });
      expect(authorizationServer.activity.lastAuthorizationParams).toMatchObject({
        resource: `${app.url}/mcp`,
        code_challenge_method: 'S256',
        redirect_uri: `${inspector.origin}/oauth/callback`,
      });
      expect(authorizationServer.activity.lastTokenRequest).toMatchObject({
        grantType: 'authorization_code',
        clientAuthentication: 'none',
      });
      // tool_discovery and tool_execute, by their titles (the Inspector lists a tool's title when it has one).
      const tools = await listTools(inspectorPage, 'Find tools', stepTimeoutMs);
      expect(tools).toEqual(['Find tools', 'Run a tool']);
    },
    stepTimeoutMs * 2,
  );

  it(
    'search-mcp-http refuses a token the Inspector got for another search-mcp-http (same issuer, other resource)',
    async () => {
      other = await startSearchMcpHttp({ issuer: authorizationServer.issuer, corsOrigin: inspector.origin });
      authorizationServer.allowResource(`${other.url}/mcp`);
      const { inspectorPage, status } = await logIn(`${other.url}/mcp`);
      expect(status, diagnostics(inspectorPage)).toBe('Connected');
      const token = await storedAccessToken(inspectorPage, `${other.url}/mcp`);
      expect(token, 'the Inspector keeps the token of its log-in').toBeTruthy();
      const listWith = (url: string) =>
        fetch(`${url}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'browser-tests', version: '0.0.0' },
            },
          }),
        });
      expect((await listWith(other.url)).status).toBe(200);
      const refused = await listWith(app.url);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    },
    stepTimeoutMs * 2,
  );
});
