import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthorizationServer, startAuthorizationServer } from './authorization-server.js';
import {
  type AuthorizationServerMetadata,
  discover,
  jwtClaims,
  obtainTokens,
  registerNativeClient,
  startCallbackListener,
} from './oauth-test-client.js';

const resource = 'http://127.0.0.1:9/mcp';

let authorizationServer: AuthorizationServer;
let listener: Awaited<ReturnType<typeof startCallbackListener>>;
let metadata: AuthorizationServerMetadata;
let clientId: string;

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer({ resources: [resource], subject: 'alice' });
  listener = await startCallbackListener();
  metadata = await discover(authorizationServer.issuer);
  clientId = await registerNativeClient(metadata, listener.redirectUri);
});

afterAll(async () => {
  await authorizationServer?.close();
  await listener?.close();
});

const tokensOfNextLogin = () =>
  obtainTokens(metadata, listener, { clientId, redirectUri: listener.redirectUri, resource, scope: 'mcp:read' });

describe('signInAs', () => {
  it('makes the next authorizations log in another user, and back', async () => {
    expect(authorizationServer.subject).toBe('alice');
    expect(jwtClaims((await tokensOfNextLogin()).access_token).sub).toBe('alice');

    authorizationServer.signInAs('bob');
    expect(authorizationServer.subject).toBe('bob');
    const bob = await tokensOfNextLogin();
    expect(jwtClaims(bob.access_token).sub).toBe('bob');

    authorizationServer.signInAs('alice');
    expect(jwtClaims((await tokensOfNextLogin()).access_token).sub).toBe('alice');
    // Tokens already issued keep their user.
    expect(jwtClaims(bob.access_token).sub).toBe('bob');
  });
});
