import { describe, expect, it } from 'vitest';
import { useGrantWireServers } from '../../test/grant-wire-server.js';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import { createRecordingOAuthStore, textOf } from '../../test/oauth-harness.js';

/**
 * DPoP (docs/oauth.md, "DPoP"): with `dpop: true` the token request carries a proof and gets a token bound to the
 * client's key; every request to the server presents it with the `DPoP` scheme and a fresh proof of that key for
 * that request (`ath` = the token's hash); a nonce demanded with `use_dpop_nonce` is used on the retry, at the token
 * endpoint and at the server. Here with client credentials, so no person takes part.
 */
const { createManager } = useManagers();
const startWire = useGrantWireServers();

describe.each([
  ['without nonces', false],
  ['with nonces demanded', true],
])('DPoP %s', (_name, requireNonce) => {
  it('a key-bound token, presented with the DPoP scheme and a fresh proof per request', async () => {
    const wire = await startWire({ dpop: true, requireNonce });
    const { manager } = createManager(
      {
        remote: {
          url: wire.url,
          oauth: { grant: 'client_credentials', clientId: 'machine', clientSecret: 'machine-secret', dpop: true },
        },
      },
      { oauth: { openAuthorizationUrl: false, store: createRecordingOAuthStore() } },
    );
    await manager.startAll();
    expect(statusOf(manager, 'remote')?.state, statusOf(manager, 'remote')?.lastError).toBe('running');
    expect(textOf(await manager.callTool('remote', 'echo', { message: 'bound' }))).toContain('bound');
    expect(textOf(await manager.callTool('remote', 'echo', { message: 'again' }))).toContain('again');
    // One token: the nonce retry is the same request again, not a new grant.
    expect(new Set(wire.activity.tokenRequests.map((request) => request.grant_type))).toEqual(
      new Set(['client_credentials']),
    );
    expect(wire.activity.schemes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(wire.activity.schemes)).toEqual(new Set(['DPoP']));
    // Every proof seen was new (the server refuses a reused jti, so the calls above would have failed).
    expect(new Set(wire.activity.proofIds).size).toBe(wire.activity.proofIds.length);
    expect(wire.activity.tokenNonceChallenges).toBe(requireNonce ? 1 : 0);
    expect(wire.activity.resourceNonceChallenges).toBe(requireNonce ? 1 : 0);
  });
});
