import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BackendAuthorizationError, type BackendAuthorizationStep } from '@search-mcp/shared';
import type { AuthorizationServer, ProtectedMcpServer } from '@search-mcp/test-kit/oauth';
import { describe, expect } from 'vitest';
import { type Managers, statusOf } from '../../test/manager-harness.js';
import {
  createRecordingOAuthStore,
  eventually,
  expectNoSecret,
  failureOf,
  followingOpener,
  type OAuthFixtures,
  type RecordingOAuthStore,
  plainServer,
  secretsEverStored,
  textOf,
} from '../../test/oauth-harness.js';
import { oauthTest as it } from '../../test/oauth-test.js';
import { startFront } from '../../test/protected-server-front.js';
import type { AuthorizationOpener, McpClientManager } from '../index.js';

/**
 * Bad input on the way to a token (issue 20, docs/oauth.md "When it fails"): each case fails with a
 * `BackendAuthorizationError` naming the server and the step, holding no secret; the server waits in `needs-auth`
 * (nothing crashes), and a plain server in the same manager keeps working.
 */
// Every case has servers and managers of its own (`oauthTest`), so the cases run at once, waiting side by side.

interface Setup {
  authorizationServer: AuthorizationServer;
  mcpServer: ProtectedMcpServer;
  manager: McpClientManager;
  store: RecordingOAuthStore;
  records: Array<{ level: string; message: string; fields: Record<string, unknown> }>;
}

/** A manager with the OAuth server `remote` (not started yet) and the plain stdio server `plain` (started). */
async function setUp(
  { fixtures, managers }: { fixtures: OAuthFixtures; managers: Managers },
  options: { opener?: AuthorizationOpener | false; url?: string; authorizationTimeoutMs?: number } = {},
  pair?: { authorizationServer: AuthorizationServer; mcpServer: ProtectedMcpServer },
): Promise<Setup> {
  const { authorizationServer, mcpServer } = pair ?? (await fixtures.startPair());
  const store = createRecordingOAuthStore();
  const { manager, records } = managers.createManager(
    { remote: { url: options.url ?? mcpServer.url.href }, plain: plainServer },
    {
      oauth: {
        openAuthorizationUrl: options.opener ?? followingOpener(),
        store,
        ...(options.authorizationTimeoutMs !== undefined
          ? { authorizationTimeoutMs: options.authorizationTimeoutMs }
          : {}),
      },
    },
  );
  await manager.start('plain');
  return { authorizationServer, mcpServer, manager, store, records };
}

/** The connect of `remote` fails clearly at `step`; nothing leaks; the plain server still answers. */
async function expectClearFailure(setup: Setup, step: BackendAuthorizationStep, words: string): Promise<Error> {
  const failure = await failureOf(setup.manager.start('remote'));
  expect(BackendAuthorizationError.isInstance(failure), String(failure)).toBe(true);
  expect(failure).toMatchObject({ serverId: 'remote', step });
  expect(failure.message).toContain("MCP server 'remote'");
  expect(failure.message).toContain(words);
  const status = statusOf(setup.manager, 'remote');
  expect(status?.state).toBe('needs-auth');
  expect(status?.lastError).toContain(words);
  const secrets = secretsEverStored(setup.store);
  expectNoSecret(failure.message, secrets);
  expectNoSecret(setup.manager.status(), secrets);
  expectNoSecret(setup.records, secrets);
  expect(textOf(await setup.manager.callTool('plain', 'echo', { message: 'still here' }))).toContain('still here');
  expect(statusOf(setup.manager, 'plain')?.state).toBe('running');
  return failure;
}

/** The authorization server's real metadata, to plant a changed copy of it. */
async function metadataOf(authorizationServer: AuthorizationServer): Promise<Record<string, unknown>> {
  return (await (await fetch(authorizationServer.metadataUrl)).json()) as Record<string, unknown>;
}

describe.concurrent('bad input from the authorization server', () => {
  it('metadata that is not JSON: discovery', async ({ expect, fixtures, managers }) => {
    const setup = await setUp({ fixtures, managers });
    setup.authorizationServer.failNext('metadata', {
      status: 200,
      contentType: 'text/html',
      body: '<html>maintenance</html>',
      times: 10,
    });
    await expectClearFailure(setup, 'discovery', 'discovery');
    expect(setup.authorizationServer.activity.registrations).toBe(0);
  });

  it('metadata naming another issuer: discovery', async ({ expect, fixtures, managers }) => {
    const setup = await setUp({ fixtures, managers });
    const forged = { ...(await metadataOf(setup.authorizationServer)), issuer: 'https://issuer.example' };
    setup.authorizationServer.failNext('metadata', { status: 200, body: JSON.stringify(forged), times: 10 });
    const failure = await expectClearFailure(setup, 'discovery', 'discovery');
    expect(failure.message).toMatch(/issuer/i);
    expect(setup.authorizationServer.activity.registrations).toBe(0);
    expect(setup.authorizationServer.activity.authorizations).toBe(0);
  });

  it('a registration endpoint that fails: registration', async ({ expect, fixtures, managers }) => {
    const setup = await setUp({ fixtures, managers });
    setup.authorizationServer.failNext('registration', {
      status: 500,
      body: JSON.stringify({ error: 'server_error', error_description: 'registration is down' }),
    });
    await expectClearFailure(setup, 'registration', 'client registration');
    expect(setup.authorizationServer.activity.authorizations).toBe(0);
  });

  it('a token endpoint that refuses the code: token', async ({ fixtures, managers }) => {
    const setup = await setUp({ fixtures, managers });
    setup.authorizationServer.failNext('token', {
      status: 400,
      body: JSON.stringify({ error: 'invalid_grant', error_description: 'the code was already used' }),
      // The SDK tries a refused code once more after forgetting the client (`invalid_grant`).
      times: 5,
    });
    await expectClearFailure(setup, 'token', 'code exchange');
  });

  it('a redirect back with error=access_denied: authorization', async ({ expect, fixtures, managers }) => {
    const opener = followingOpener({
      rewriteRedirect: (redirect) => {
        const denied = new URL(redirect.origin + redirect.pathname);
        denied.searchParams.set('error', 'access_denied');
        denied.searchParams.set('error_description', 'The user said no');
        denied.searchParams.set('state', redirect.searchParams.get('state') ?? '');
        denied.searchParams.set('iss', redirect.searchParams.get('iss') ?? '');
        return denied;
      },
    });
    const setup = await setUp({ fixtures, managers }, { opener });
    await expectClearFailure(setup, 'authorization', 'access_denied: The user said no');
    expect(setup.authorizationServer.activity.tokenRequests).toEqual({});
  });

  it('a redirect back naming another authorization server (iss of another host): callback', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const opener = followingOpener({
      rewriteRedirect: (redirect) => {
        const other = new URL(redirect);
        other.searchParams.set('iss', 'https://attacker.example');
        return other;
      },
    });
    const setup = await setUp({ fixtures, managers }, { opener });
    await expectClearFailure(setup, 'callback', 'redirect back');
    // The code was never exchanged.
    expect(setup.authorizationServer.activity.tokenRequests).toEqual({});
  });
});

describe.concurrent('a redirect that is not ours', () => {
  it('a redirect with a wrong state on the loopback: refused with a 400 page, nothing exchanged, the login goes on', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const forgedAnswers: number[] = [];
    // Another program (or a web page) hits the listener with the right code and a forged state first; the real
    // redirect comes after it.
    const opener = followingOpener({
      beforeRedirect: async (redirect) => {
        const forged = new URL(redirect);
        forged.searchParams.set('state', 'forged-state');
        const answer = await fetch(forged);
        forgedAnswers.push(answer.status);
        await answer.body?.cancel();
      },
    });
    const setup = await setUp({ fixtures, managers }, { opener });
    await setup.manager.start('remote');
    expect(statusOf(setup.manager, 'remote')?.state).toBe('running');
    expect(forgedAnswers).toEqual([400]);
    // One code exchanged: the real one.
    expect(setup.authorizationServer.activity.tokenRequests).toEqual({ authorization_code: 1 });
  });

  it('completeAuthorization with an unknown state: a 400 callback error, nothing changes', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUp({ fixtures, managers }, { opener: false });
    await setup.manager.start('remote').catch(() => {});
    const before = statusOf(setup.manager, 'remote');
    const failure = await failureOf(
      setup.manager.completeAuthorization(new URLSearchParams({ code: 'stolen-code', state: 'unknown-state' })),
    );
    expect(BackendAuthorizationError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ step: 'callback', statusCode: 400 });
    expect(failure.message).not.toContain('stolen-code');
    expect(statusOf(setup.manager, 'remote')).toEqual(before);
    expect(setup.authorizationServer.activity.tokenRequests).toEqual({});
  });

  it("completeAuthorization with another flow's state: refused, the started flow still completes", async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUp({ fixtures, managers }, { opener: false });
    await setup.manager.start('remote').catch(() => {});
    const redirectUrl = 'http://127.0.0.1:1/oauth/callback';
    const { authorizationUrl } = await setup.manager.beginAuthorization('remote', { redirectUrl });
    expect(authorizationUrl).toBeDefined();
    // The person's browser: follow until the redirect to the host's callback, without going there.
    let next = new URL(authorizationUrl as string);
    for (let hop = 0; hop < 20 && !next.href.startsWith(redirectUrl); hop += 1) {
      const response = await fetch(next, { redirect: 'manual' });
      await response.body?.cancel();
      next = new URL(response.headers.get('location') ?? '', next);
    }
    const query = next.searchParams;
    const forged = new URLSearchParams(query);
    forged.set('state', `${query.get('state')}x`);
    await expect(setup.manager.completeAuthorization(forged)).rejects.toMatchObject({ step: 'callback' });
    expect(await setup.manager.completeAuthorization(query)).toMatchObject({
      state: 'running',
      oauth: { state: 'authorized' },
    });
    expect(textOf(await setup.manager.callTool('remote', 'whoami'))).toContain('test-user');
  });
});

describe.concurrent("a host's authorization (beginAuthorization / completeAuthorization)", () => {
  /** The person's browser: follows the authorization URL until the redirect to the host's callback, not going there. */
  async function redirectOf(authorizationUrl: string, redirectUrl: string): Promise<URLSearchParams> {
    let next = new URL(authorizationUrl);
    for (let hop = 0; hop < 20 && !next.href.startsWith(redirectUrl); hop += 1) {
      const response = await fetch(next, { redirect: 'manual' });
      await response.body?.cancel();
      next = new URL(response.headers.get('location') ?? '', next);
    }
    return next.searchParams;
  }

  it('calls meanwhile do not disturb it: they fail naming the command, then the callback completes it', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUp({ fixtures, managers }, { opener: false });
    await setup.manager.start('remote').catch(() => {});
    const redirectUrl = 'http://127.0.0.1:1/oauth/callback';
    const { authorizationUrl } = await setup.manager.beginAuthorization('remote', { redirectUrl });
    // A call meets the server waiting: it reconnects, meets the 401, and must leave the flow's discovery and PKCE
    // verifier alone.
    await expect(setup.manager.callTool('remote', 'whoami')).rejects.toThrow('search-mcp auth remote');
    await eventually(() => statusOf(setup.manager, 'remote')?.state !== 'starting', 'the reconnect to end');
    const query = await redirectOf(authorizationUrl as string, redirectUrl);
    expect(await setup.manager.completeAuthorization(query)).toMatchObject({ state: 'running' });
    expect(setup.authorizationServer.activity.tokenRequests).toEqual({ authorization_code: 1 });
  });

  it('nobody comes back: after authorizationTimeoutMs it is no longer pending, and says why', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUp({ fixtures, managers }, { opener: false, authorizationTimeoutMs: 1500 });
    await setup.manager.start('remote').catch(() => {});
    const redirectUrl = 'http://127.0.0.1:1/oauth/callback';
    const { authorizationUrl } = await setup.manager.beginAuthorization('remote', { redirectUrl });
    expect(statusOf(setup.manager, 'remote')?.oauth?.state).toBe('pending');
    await eventually(
      () => statusOf(setup.manager, 'remote')?.lastError?.includes('nobody completed the authorization') === true,
      'the flow to end',
    );
    expect(statusOf(setup.manager, 'remote')?.oauth?.state).not.toBe('pending');
    // Its redirect, arriving late, no longer completes anything.
    const query = await redirectOf(authorizationUrl as string, redirectUrl);
    await expect(setup.manager.completeAuthorization(query)).rejects.toMatchObject({ step: 'callback' });
  });
});

describe.concurrent('the person who should authorize', () => {
  it('an opener that throws: authorization', async ({ fixtures, managers }) => {
    const setup = await setUp(
      { fixtures, managers },
      {
        opener: () => {
          throw new Error('no browser on this machine');
        },
      },
    );
    await expectClearFailure(
      setup,
      'authorization',
      'could not open the authorization URL: no browser on this machine',
    );
  });

  it('nobody completes the authorization in time: authorization, with the command', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const opened: URL[] = [];
    const setup = await setUp(
      { fixtures, managers },
      { opener: (url) => void opened.push(url), authorizationTimeoutMs: 300 },
    );
    const failure = await expectClearFailure(
      setup,
      'authorization',
      'nobody completed the authorization within 300 ms',
    );
    expect(failure.message).toContain('search-mcp auth remote');
    expect(opened).toHaveLength(1);
    expect(statusOf(setup.manager, 'remote')?.oauth?.state).toBe('needs-auth');
  });
});

describe.concurrent('a token for another audience', () => {
  it('is refused by the server: resource, no loop', async ({ expect, fixtures, managers }) => {
    // A front that names itself as the resource (its own RFC 9728 metadata) before the real server: the token is
    // issued for the front, and the server behind it refuses it (wrong `aud`).
    const pair = await fixtures.startPair();
    const front = await startFront(pair.mcpServer);
    fixtures.alsoClose(() => front.close());
    pair.authorizationServer.allowResource(front.url);
    const setup = await setUp({ fixtures, managers }, { url: front.url }, pair);
    await expectClearFailure(setup, 'resource', 'refused the token it was just given');
    expect(pair.mcpServer.activity.unauthorized).toBeLessThanOrEqual(4);
  });

  it('metadata naming another resource than the server: the client asks for no token', async ({
    expect,
    fixtures,
    managers,
  }) => {
    // The same server reached as `localhost`: its metadata names the 127.0.0.1 URL, which is not the server asked.
    const pair = await fixtures.startPair();
    const setup = await setUp(
      { fixtures, managers },
      { url: pair.mcpServer.url.href.replace('127.0.0.1', 'localhost') },
      pair,
    );
    await expectClearFailure(setup, 'resource', 'resource');
    expect(pair.authorizationServer.activity.authorizations).toBe(0);
  });
});

describe.concurrent('an authorization server whose metadata redirects to another host', () => {
  it('gets nothing from the other host: no registration there, a clear error', async ({
    expect,
    fixtures,
    managers,
  }) => {
    // The resource names an authorization server whose metadata URLs answer 302 to the real one's on another host
    // (`localhost` for `127.0.0.1`): the document found there names an issuer that is not the one asked for.
    const pair = await fixtures.startPair();
    const redirecting = createServer((request, response) => {
      const target = new URL(request.url ?? '/', pair.authorizationServer.issuer);
      target.hostname = 'localhost';
      response.writeHead(302, { location: target.href }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    fixtures.alsoClose(() => new Promise<void>((resolve) => redirecting.close(() => resolve())));
    const redirectingIssuer = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
    const front = await startFront(pair.mcpServer, (metadata) => ({
      ...metadata,
      authorization_servers: [redirectingIssuer],
    }));
    fixtures.alsoClose(() => front.close());
    pair.authorizationServer.allowResource(front.url);
    const setup = await setUp({ fixtures, managers }, { url: front.url }, pair);
    // No metadata is taken from the other host: the SDK falls back to the 2025-03-26 default endpoints of the issuer
    // asked for, whose registration answers the redirect too, and the flow stops there.
    await expectClearFailure(setup, 'registration', 'Dynamic Client Registration rejected (HTTP 302)');
    expect(pair.authorizationServer.activity.registrations).toBe(0);
    expect(pair.authorizationServer.activity.authorizations).toBe(0);
  });
});
