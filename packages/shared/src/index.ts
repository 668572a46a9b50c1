/**
 * `@search-mcp/shared`: types, config schema and parser, tool keys, errors, logger and the secret redactor. No I/O
 * here (packages/shared/README.md, "Entries"); reading config files is in `@search-mcp/shared/node`.
 */
export {
  AuthenticationError,
  AuthorizationError,
  BackendAuthorizationError,
  BackendError,
  ConfigError,
  formatIssues,
  JsonRpcErrorCode,
  RateLimitError,
  SearchMcpError,
  SearchProviderError,
  ServerNotRunningError,
  TimeoutError,
  ToolDisabledError,
  ToolNotFoundError,
  ValidationError,
} from './errors/index.js';
export type {
  BackendAuthorizationStep,
  Issue,
  SearchMcpErrorCode,
  SearchMcpErrorOptions,
  SearchProviderFailure,
} from './errors/index.js';

export { configDefaults, configFileSchema } from './config/config-schema.js';
export type { SearchMcpConfigInput } from './config/config-schema.js';
export type {
  CloudSearchConfig,
  ClusterConfig,
  EnterpriseIdentityProvider,
  HybridSearchConfig,
  LlmSearchConfig,
  OAuthGrant,
  ProjectConfig,
  RemoteOAuthSettings,
  OAuthResourceConfig,
  OAuthRole,
  RateConfig,
  RateLimitsConfig,
  RequiredClaimValue,
  RemoteServerConfig,
  ResolvedConfig,
  SandboxConfig,
  SandboxPath,
  SearchConfig,
  SecurityConfig,
  ServerConfig,
  ServerTransportConfig,
  StdioServerConfig,
  ToolOverride,
} from './config/resolved-config.js';
export { isResolvedConfig, parseConfig } from './config/parse-config.js';
export type { ParseConfigOptions } from './config/parse-config.js';
export { formatConfigPath } from './config/config-path.js';
export { diffServerConfigs } from './config/diff-server-configs.js';
export type { ServerConfigDiff } from './config/diff-server-configs.js';
export { sameJsonValue } from './config/config-values.js';
export { findDuplicateServers, serverIdentityKey } from './config/server-identity.js';
export type { ServerIdentitySource } from './config/server-identity.js';
export { isPerUserServer } from './config/per-user-server.js';
export type { SecretLookup, SecretResolver, VariableEnvironment } from './config/env-expansion.js';

export { collectConfigSecrets } from './secrets/config-secrets.js';
export { createSecretRedactor, noSecrets } from './secrets/secret-redactor.js';
export type { SecretRedactor } from './secrets/secret-redactor.js';
export { createGrowingSecretRedactor } from './secrets/growing-secret-redactor.js';
export type { GrowingSecretRedactor, SecretCollector } from './secrets/growing-secret-redactor.js';

export { createJsonLineLogger, logLevels, silentLogger } from './logging/logger.js';
export type { JsonLineLoggerOptions, LogFields, Logger, LogLevel } from './logging/logger.js';

export { isValidServerId, normalizeServerId, SERVER_ID_PATTERN } from './keys/server-id.js';
export { formatToolKey, parseToolKey, TOOL_KEY_SEPARATOR } from './keys/tool-key.js';
export { EXPOSED_NAME_PATTERN } from './keys/exposed-name.js';
export type { ExposedNameStyle } from './keys/exposed-name.js';
export type { ParsedToolKey } from './keys/tool-key.js';

export { delay } from './async/delay.js';
export { settleWithin } from './async/settle-within.js';
export { untilAborted } from './async/until-aborted.js';
export { isJsonRpcMessage } from './json-rpc/json-rpc-message.js';
export {
  checkParamHeaders,
  decodeHeaderValue,
  MCP_PARAM_HEADER_PREFIX,
  paramHeaders,
  scanHeaderDeclarations,
} from './http/mcp-param-headers.js';
export type { HeaderDeclaration, HeaderScan, ParamHeaderMismatch } from './http/mcp-param-headers.js';
export { isTerminalTaskStatus, taskPollDelayMs } from './types/task-polling.js';
export { listsTasksExtension, TASKS_EXTENSION } from './types/tasks-extension.js';
export type { JsonRpcMessageShape } from './json-rpc/json-rpc-message.js';

export type {
  ProjectOptimization,
  SearchRequest,
  SearchResponse,
  SearchResult,
  SearchStrategy,
  SearchToolInfo,
} from './types/search-types.js';
export type {
  ServerFeature,
  ServerHealth,
  ServerOAuthStatus,
  ServerState,
  ServerStatus,
  ServerTransportKind,
} from './types/server-status.js';
export type { JsonSchemaObject, ToolAnnotations, ToolDefinition, ToolInfo } from './types/tool-info.js';
export type { ToolCallOptions, ToolCallResult, ToolProgress, ToolSource } from './types/tool-call.js';
export { hasInputRetry, inputRequiredMethods, isInputRequiredResult } from './types/input-required.js';
export type { InputRequest, InputRequiredResult, InputRetry } from './types/input-required.js';
export { isLoggingLevel, loggingLevels } from './types/logging-level.js';
export type { LoggingLevel } from './types/logging-level.js';
export type {
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResultResponse,
  McpBinaryContent,
  McpCallToolResult,
  McpClientCapabilities,
  McpContentBlock,
  McpEmbeddedResourceContent,
  McpFetchLike,
  McpImplementation,
  McpMessageExtraInfo,
  McpMessageHandler,
  McpParams,
  McpProgressToken,
  McpRequestId,
  McpRequestMeta,
  McpResourceLinkContent,
  McpResult,
  McpServerCapabilities,
  McpTextContent,
  McpTransport,
  McpTransportSendOptions,
} from './types/mcp-wire.js';

export { errorMessage } from './text/error-message.js';
export { isRecord } from './text/is-record.js';
export { truncateText } from './text/truncate-text.js';
export { closestName, editDistance, foldName, nearestNames } from './text/nearest-names.js';
export { authorizeCommand } from './text/authorize-command.js';
export { LineSplitter } from './text/line-splitter.js';
export type { LineSplitterOptions } from './text/line-splitter.js';
