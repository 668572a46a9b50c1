// The OAuth access-token verifier of `auth.oauth` (issue 21: search-mcp-http as an OAuth-protected resource).
export type { OAuthPrincipal, OAuthResourceSettings, OAuthTokenCheck } from './oauth-resource-settings.js';
export {
  createOAuthTokenVerifier,
  type OAuthTokenVerifier,
  type OAuthVerifyOptions,
} from './oauth-token-verifier.js';
