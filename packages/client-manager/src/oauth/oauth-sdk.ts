import { lazyModule } from '../connection/lazy-module.js';

/** The 2.x client SDK's auth module, loaded the first time a server asks for OAuth (most sessions never do). */
export const oauthSdk = lazyModule(
  { name: 'the OAuth client of @modelcontextprotocol/client', loadFirst: 'oauthSdk.load' },
  async () => {
    const sdk = await import('@modelcontextprotocol/client');
    return {
      auth: sdk.auth,
      extractWWWAuthenticateParams: sdk.extractWWWAuthenticateParams,
      computeScopeUnion: sdk.computeScopeUnion,
      isStrictScopeSuperset: sdk.isStrictScopeSuperset,
      createPrivateKeyJwtAuth: sdk.createPrivateKeyJwtAuth,
      DpopSession: sdk.DpopSession,
      withDpopFromProvider: sdk.withDpopFromProvider,
      requestJwtAuthorizationGrant: sdk.requestJwtAuthorizationGrant,
      discoverAndRequestJwtAuthGrant: sdk.discoverAndRequestJwtAuthGrant,
    };
  },
);
