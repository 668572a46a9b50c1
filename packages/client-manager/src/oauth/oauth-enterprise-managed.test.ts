import { describe, expect, it } from 'vitest';
import { useGrantWireServers } from '../../test/grant-wire-server.js';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import { createRecordingOAuthStore, expectNoSecret, textOf } from '../../test/oauth-harness.js';

/**
 * Enterprise-managed authorization (docs/oauth.md): the enterprise identity provider exchanges the configured ID token
 * for an ID-JAG (RFC 8693) naming the server's authorization server and the server as resource; the authorization
 * server takes the ID-JAG as a `jwt-bearer` assertion from the configured client. Nobody is asked.
 */
const { createManager } = useManagers();
const startWire = useGrantWireServers();

const idToken = 'eyJhbGciOiJSUzI1NiJ9.enterprise-id-token.signature';

describe('the enterprise-managed grant', () => {
  it('exchanges the ID token at the identity provider, then presents the ID-JAG at the token endpoint', async () => {
    const wire = await startWire({ idToken });
    const origin = new URL(wire.url).origin;
    const { manager, records } = createManager(
      {
        remote: {
          url: wire.url,
          oauth: {
            grant: 'enterprise-managed',
            clientId: 'search-mcp',
            clientSecret: 'mcp-client-secret',
            identityProvider: { tokenEndpoint: `${origin}/idp/token`, clientId: 'search-mcp-at-idp', idToken },
          },
        },
      },
      { oauth: { openAuthorizationUrl: false, store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    expect(wire.activity.exchanges).toEqual([
      expect.objectContaining({
        subject_token: idToken,
        audience: origin,
        resource: wire.url,
        client_id: 'search-mcp-at-idp',
      }),
    ]);
    expect(wire.activity.tokenRequests).toEqual([
      expect.objectContaining({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'id-jag-1' }),
    ]);
    expect(textOf(await manager.callTool('remote', 'echo', { message: 'enterprise' }))).toContain('enterprise');
    expectNoSecret(manager.status(), [idToken]);
    expectNoSecret(records, [idToken]);
  });
});
