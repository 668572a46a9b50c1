import { BackendAuthorizationError } from '@search-mcp/shared';
import { describe } from 'vitest';
import { statusOf } from '../../test/manager-harness.js';
import { eventually, failureOf, followingOpener, protocolChoices } from '../../test/oauth-harness.js';
import { oauthTest as it } from '../../test/oauth-test.js';
import { authorizeAs, redirectOf, setUpPerUser, storedSubjects, whoamiAs } from '../../test/per-user-harness.js';

/**
 * A server with `identity: "per-user"` (README, "Per-user servers"), against a real authorization server and
 * the MCP server it protects: every caller authorizes with their own account, and their calls run on their own
 * connection with their own token.
 */
// Every case has servers and managers of its own (`oauthTest`), so the cases run at once, waiting side by side.

describe.concurrent('two callers of a per-user server', () => {
  it.for(protocolChoices)(
    'each authorizes with their own account, tokens never mixed (protocol %s)',
    async ([name, protocol], { expect, fixtures, managers }) => {
      const setup = await setUpPerUser(fixtures, managers, protocol);
      const { manager, mcpServer, store } = setup;
      await authorizeAs(setup, 'alice');
      await authorizeAs(setup, 'bob');

      // Interleaved, and at once: the token each call carried is its caller's.
      for (const subject of ['alice', 'bob', 'alice', 'bob', 'bob', 'alice']) {
        expect(await whoamiAs(manager, subject)).toBe(subject);
      }
      const together = await Promise.all(['alice', 'bob', 'alice', 'bob'].map((subject) => whoamiAs(manager, subject)));
      expect(together).toEqual(['alice', 'bob', 'alice', 'bob']);
      // Every 2025 session the protected server saw carried one user's token throughout (a connection is one caller's).
      const subjectsBySession = new Map<string, Set<string>>();
      for (const { sub, sessionId } of mcpServer.activity.tokenUses) {
        if (sessionId === undefined) continue;
        subjectsBySession.set(sessionId, (subjectsBySession.get(sessionId) ?? new Set()).add(sub));
      }
      if (name === '2025') expect(subjectsBySession.size).toBeGreaterThanOrEqual(2);
      for (const subjects of subjectsBySession.values()) expect(subjects.size).toBe(1);
      expect(new Set(mcpServer.activity.tokenUses.map(({ sub }) => sub))).toEqual(new Set(['alice', 'bob']));
      // Each caller's credentials under a key of their own; nothing stored under the server's shared key.
      const stored = storedSubjects(store);
      expect(stored.map(({ sub }) => sub).sort()).toEqual(['alice', 'bob']);
      for (const { key, sub } of stored) expect(key).toContain(`:${sub}:`);
      expect(stored.some(({ key }) => key.startsWith('oauth:remote:'))).toBe(false);
      expect(statusOf(manager, 'remote')?.perUser).toEqual({ connections: 2, maxConnections: 50 });
    },
  );

  it('without a subject the call uses the shared connection, which waits for its own login as before', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUpPerUser(fixtures, managers);
    await setup.manager.startAll();
    await authorizeAs(setup, 'alice');
    expect(statusOf(setup.manager, 'remote')?.state).toBe('needs-auth');
    await expect(setup.manager.callTool('remote', 'whoami')).rejects.toThrow('search-mcp auth remote');
    await eventually(() => statusOf(setup.manager, 'remote')?.state !== 'starting', 'the reconnect to end');
    // Alice's connection is hers alone: the server's own status is still its shared connection's.
    expect(statusOf(setup.manager, 'remote')).toMatchObject({
      state: 'needs-auth',
      perUser: { connections: 1, maxConnections: 50 },
    });
  });

  it('a first call without authorization fails with the URL to open; after it, the same call works', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUpPerUser(fixtures, managers);
    setup.authorizationServer.signInAs('carol');
    // Two first calls at once: one start, one authorization, the same URL for both.
    const [first, second] = await Promise.all([
      failureOf(setup.manager.callTool('remote', 'whoami', {}, { subject: 'carol' })),
      failureOf(setup.manager.callTool('remote', 'whoami', {}, { subject: 'carol' })),
    ]);
    expect(BackendAuthorizationError.isInstance(first)).toBe(true);
    const failure = first as BackendAuthorizationError;
    expect(failure).toMatchObject({ step: 'authorization', needsUser: true });
    expect(failure.authorizationUrl).toMatch(new RegExp(`^${setup.authorizationServer.issuer}/`));
    expect(failure.message).toContain(`open ${failure.authorizationUrl}`);
    expect(failure.message).toContain('your own account');
    expect((second as BackendAuthorizationError).authorizationUrl).toBe(failure.authorizationUrl);

    const status = await setup.manager.completeAuthorization(await redirectOf(failure.authorizationUrl as string));
    expect(status).toMatchObject({ state: 'running', oauth: { state: 'authorized' } });
    expect(await whoamiAs(setup.manager, 'carol')).toBe('carol');
    expect(setup.authorizationServer.activity.tokenRequests).toMatchObject({ authorization_code: 1 });
  });

  it('a caller whose authorization was revoked is asked to authorize again, with a URL', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUpPerUser(fixtures, managers);
    await authorizeAs(setup, 'alice');
    setup.authorizationServer.revokeAll();
    const failure = await failureOf(setup.manager.callTool('remote', 'whoami', {}, { subject: 'alice' }));
    expect(BackendAuthorizationError.isInstance(failure)).toBe(true);
    const { authorizationUrl } = failure as BackendAuthorizationError;
    expect(authorizationUrl).toBeDefined();
    await setup.manager.completeAuthorization(await redirectOf(authorizationUrl as string));
    expect(await whoamiAs(setup.manager, 'alice')).toBe('alice');
  });

  it("never opens the manager's browser opener, even when it has one", async ({ expect, fixtures, managers }) => {
    const opener = followingOpener();
    const setup = await setUpPerUser(fixtures, managers, { openAuthorizationUrl: opener });
    const failure = await failureOf(setup.manager.callTool('remote', 'whoami', {}, { subject: 'erin' }));
    expect((failure as BackendAuthorizationError).authorizationUrl).toBeDefined();
    expect(opener.urls).toEqual([]);
    expect(setup.authorizationServer.activity.tokenRequests).toEqual({});
  });

  it("a caller's task-augmented call is refused (the task methods reach only the shared connection)", async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUpPerUser(fixtures, managers);
    const call = setup.manager.callTool('remote', 'whoami', {}, { subject: 'alice', task: {} });
    await expect(call).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(statusOf(setup.manager, 'remote')?.perUser?.connections).toBe(0);
  });

  it('without a redirect URL from the host, the error names the route that begins an authorization', async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUpPerUser(fixtures, managers, { redirectUrl: undefined });
    const failure = await failureOf(setup.manager.callTool('remote', 'whoami', {}, { subject: 'dave' }));
    expect(failure).toMatchObject({ step: 'authorization', needsUser: true });
    expect((failure as BackendAuthorizationError).authorizationUrl).toBeUndefined();
    expect(failure.message).toContain('POST /v1/servers/remote/authorize');
  });

  it("logout of one caller forgets only their tokens; the other's calls go on", async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUpPerUser(fixtures, managers);
    await authorizeAs(setup, 'alice');
    await authorizeAs(setup, 'bob');
    const status = await setup.manager.logout('remote', { subject: 'alice' });
    expect(status.oauth?.state).toBe('needs-auth');
    expect(storedSubjects(setup.store).map(({ sub }) => sub)).toEqual(['bob']);
    expect(await whoamiAs(setup.manager, 'bob')).toBe('bob');
    const failure = await failureOf(setup.manager.callTool('remote', 'whoami', {}, { subject: 'alice' }));
    expect((failure as BackendAuthorizationError).authorizationUrl).toBeDefined();
  });

  it("stop closes the callers' own connections and refuses their calls until start; restart closes them too", async ({
    expect,
    fixtures,
    managers,
  }) => {
    const setup = await setUpPerUser(fixtures, managers);
    const { manager } = setup;
    await authorizeAs(setup, 'alice');
    expect(await whoamiAs(manager, 'alice')).toBe('alice');
    expect(statusOf(manager, 'remote')?.perUser?.connections).toBe(1);

    await manager.stop('remote');
    expect(statusOf(manager, 'remote')?.perUser?.connections).toBe(0);
    const refused = await failureOf(manager.callTool('remote', 'whoami', {}, { subject: 'alice' }));
    expect(refused).toMatchObject({ code: 'SERVER_NOT_RUNNING' });
    expect(refused.message).toContain('stopped on purpose');
    expect(statusOf(manager, 'remote')?.perUser?.connections).toBe(0);

    // The shared connection has no login of its own (it waits for one): its start fails, the callers may call again.
    await manager.start('remote').catch(() => {});
    expect(await whoamiAs(manager, 'alice')).toBe('alice');
    expect(statusOf(manager, 'remote')?.perUser?.connections).toBe(1);

    await manager.restart('remote').catch(() => {});
    expect(statusOf(manager, 'remote')?.perUser?.connections).toBe(0);
    // Reopened at the next call, with the stored tokens.
    expect(await whoamiAs(manager, 'alice')).toBe('alice');
    expect(statusOf(manager, 'remote')?.perUser?.connections).toBe(1);
  });
});
