import { describe, expect, it } from 'vitest';
import { useGrantWireServers } from '../../test/grant-wire-server.js';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import { createRecordingOAuthStore, expectNoSecret, textOf } from '../../test/oauth-harness.js';

/**
 * Workload identity federation (docs/oauth.md, "Without a person"): `grant: "jwt-bearer"` presents the configured
 * assertion (RFC 7523 §2.1) at the token endpoint and uses the token it gets; nobody is asked. A refused assertion
 * fails the server with the authorization server's reason, after one request: no retry, no other grant.
 */
const { createManager } = useManagers();
const startWire = useGrantWireServers();

const assertion = 'eyJhbGciOiJFUzI1NiJ9.workload-identity-token.signature';

async function start(oauth: Record<string, unknown>, expected = assertion) {
  const wire = await startWire({ assertion: expected });
  const { manager, records } = createManager(
    { remote: { url: wire.url, oauth } },
    {
      oauth: {
        openAuthorizationUrl: () => {
          throw new Error('nobody should be asked');
        },
        store: createRecordingOAuthStore(),
      },
    },
  );
  return { wire, manager, records };
}

describe('the jwt-bearer grant', () => {
  it('presents the assertion, gets a token and calls through it, asking nobody; the assertion is shown nowhere', async () => {
    const { wire, manager, records } = await start({ grant: 'jwt-bearer', clientId: 'workload', assertion });
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    expect(wire.activity.tokenRequests).toEqual([
      expect.objectContaining({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
        client_id: 'workload',
      }),
    ]);
    expect(textOf(await manager.callTool('remote', 'echo', { message: 'hi' }))).toContain('hi');
    expect(wire.activity.schemes.every((scheme) => scheme === 'Bearer')).toBe(true);
    expectNoSecret(manager.status(), [assertion]);
    expectNoSecret(records, [assertion]);
  });

  it('a refused assertion: the server fails naming the token endpoint and its reason, after one request', async () => {
    const { wire, manager } = await start({
      grant: 'jwt-bearer',
      clientId: 'workload',
      assertion: 'an-expired-assertion',
    });
    await manager.startAll();
    const status = statusOf(manager, 'remote');
    expect(status?.state).not.toBe('running');
    expect(status?.lastError).toMatch(/token request.*token endpoint.*the assertion was refused/);
    expect(wire.activity.tokenRequests).toHaveLength(1);
    expect(wire.activity.tokenRequests[0]?.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
  });
});
