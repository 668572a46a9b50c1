export { McpClientManager } from './mcp-client-manager.js';
export type {
  HealthCheckOptions,
  McpClientManagerEvents,
  McpClientManagerOptions,
} from './mcp-client-manager-options.js';
export type { CallToolOptions } from './connection/forward-tool-call.js';
export { defaultRestartPolicy } from './connection/restart-policy.js';
export type { RestartPolicy } from './connection/restart-policy.js';
export type { BackendRequestOptions } from './connection/backend-request-options.js';
export type { LogRateLimit } from './connection/log-rate-limit.js';
export type { LogMessageParams, TaskStatusParams } from './backend-notification-params.js';
export type { Listed, Page } from './features/feature-support.js';
export type { CompleteParams, PromptPage } from './features/prompt-forwarding.js';
export type { ResourcePage, ResourceTemplatePage } from './features/resource-forwarding.js';
export type {
  InFlightRequest,
  RequestOrigin,
  ReverseRequest,
  ReverseRequestMethod,
  ReverseRequestRouter,
} from './reverse/reverse-request-types.js';
export type { ServerConfigChanges } from './server-config-changes.js';
export type { ToolListCache } from './tool-list-cache.js';
export type { AuthorizationOpener, McpClientManagerOAuthOptions } from './oauth/oauth-options.js';
export type { OAuthStore } from './oauth/oauth-store.js';
export type { PerUserOptions } from './per-user/per-user-options.js';
export { createFileOAuthStore } from './oauth/file-oauth-store.js';
export { createMemoryOAuthStore } from './oauth/memory-oauth-store.js';
export { createDefaultOAuthStore, defaultOAuthFilePath } from './oauth/default-oauth-store.js';
export type { DefaultOAuthStoreOptions } from './oauth/default-oauth-store.js';
export type { PrestartedServer, StdioLaunch } from './process/prestarted-server.js';
