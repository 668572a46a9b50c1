/// <reference path="./oidc-provider.d.ts" />
// `@search-mcp/test-kit/oauth`: a real OAuth 2.1 authorization server (oidc-provider) and an MCP server it protects,
// for tests of an MCP client's OAuth (README: "OAuth fixtures").
export {
  type AuthorizationServer,
  type AuthorizationServerActivity,
  type AuthorizationServerEndpoint,
  type AuthorizationServerOptions,
  type ClientAuthentication,
  type ClientRegistration,
  defaultOAuthScopes,
  type PlannedFault,
  type RecordedTokenRequest,
  startAuthorizationServer,
} from './authorization-server.js';
export {
  type ProtectedMcpServer,
  type ProtectedMcpServerActivity,
  type ProtectedMcpServerOptions,
  startProtectedMcpServer,
  type ToolScopes,
} from './protected-mcp-server.js';
export { startCallbackListener } from './oauth-test-client.js';
export { type CallbackListener, connectWithLogin, InMemoryOAuthProvider } from './sdk-oauth-login.js';
