// The OAuth access-token verifier of `auth.oauth` (docs/oauth-in-front.md: search-mcp-http as an OAuth-protected resource).
export type { OAuthPrincipal, OAuthResourceSettings, OAuthTokenCheck } from './oauth-resource-settings.js';
export {
  createOAuthTokenVerifier,
  type OAuthTokenVerifier,
  type OAuthVerifyOptions,
} from './oauth-token-verifier.js';
export { looksLikeJwt } from './jwt-access-token.js';
