/**
 * `@search-mcp/shared`: types, config schema, tool keys and errors. No I/O here (CONTRACT §1);
 * reading config files is in `@search-mcp/shared/node`.
 */
export {
  AuthenticationError,
  AuthorizationError,
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
} from './errors.js';
export type { Issue, SearchMcpErrorCode, SearchMcpErrorOptions, SearchProviderFailure } from './errors.js';

export { createJsonLineLogger, logLevels, silentLogger } from './logger.js';
export { createSecretRedactor, noSecrets } from './secrets/secret-redactor.js';
export type { SecretRedactor } from './secrets/secret-redactor.js';
export { collectConfigSecrets } from './secrets/config-secrets.js';
export type { JsonLineLoggerOptions, LogFields, Logger, LogLevel } from './logger.js';

export type {
  ProjectOptimization,
  SearchRequest,
  SearchResponse,
  SearchResult,
  SearchStrategy,
  SearchToolInfo,
} from './search-types.js';

export type { ServerHealth, ServerState, ServerStatus, ServerTransportKind } from './server-status.js';

export type { JsonSchemaObject, ToolAnnotations, ToolDefinition, ToolInfo } from './tool-info.js';
export type { ToolCallOptions, ToolCallResult, ToolProgress, ToolSource } from './tool-call.js';

export { isValidServerId, normalizeServerId, SERVER_ID_PATTERN } from './server-id.js';

export { formatToolKey, parseToolKey, TOOL_KEY_SEPARATOR } from './tool-key.js';

export { isJsonRpcMessage } from './json-rpc-message.js';
export type { JsonRpcMessageShape } from './json-rpc-message.js';
export type { ParsedToolKey } from './tool-key.js';

export { containsVariableReference, expandVariables } from './env-expansion.js';
export type { VariableEnvironment, VariableExpansion } from './env-expansion.js';

export {
  auditSchema,
  authSchema,
  authTokenSchema,
  cloudSearchSchema,
  configDefaults,
  configFileSchema,
  describeSchemaIssue,
  exposureSchema,
  projectSchema,
  searchSchema,
  serverEntrySchema,
  serverTypeValues,
} from './config-schema.js';
export type {
  CloudSearchConfig,
  RemoteServerConfig,
  ResolvedConfig,
  SearchMcpConfigInput,
  ServerConfig,
  ServerTransportConfig,
  StdioServerConfig,
} from './config-schema.js';

export { formatConfigPath, isResolvedConfig, parseConfig } from './parse-config.js';
export type { ParseConfigOptions } from './parse-config.js';

export { errorMessage } from './text/error-message.js';
export { isRecord } from './text/is-record.js';
export { truncateText } from './text/truncate-text.js';
export { LineSplitter } from './text/line-splitter.js';
export type { LineSplitterOptions } from './text/line-splitter.js';
