export { createSearchMcpServer } from './create-search-mcp-server.js';
export type { RequestExtra, SearchMcpServerOptions, ServerStatusSource } from './create-search-mcp-server.js';
export {
  TOOL_DISCOVERY,
  TOOL_EXECUTE,
  toolDiscoveryDefinition,
  toolExecuteDefinition,
} from './meta-tool-definitions.js';
export type { DiscoveryDetail } from './meta-tool-definitions.js';
export { toDiscoveryResults } from './discovery-response.js';
export type { DiscoveryResult, DiscoveryResults } from './discovery-response.js';
export { EXPOSED_NAME_PATTERN, ExposedToolNames, exposedToolName } from './exposed-tool-names.js';
export { buildServerInstructions } from './server-instructions.js';
export { JsonRpcWireError, toErrorResult, toJsonRpcError } from './wire-errors.js';
export { createJsonlAuditSink } from './audit-log.js';
export type { AuditRecord, AuditSink } from './audit-log.js';
export { createSearchMcpRuntime } from './search-mcp-runtime.js';
export type { SearchMcpRuntime, SearchMcpRuntimeOptions } from './search-mcp-runtime.js';
export { StdioJsonRpcServerTransport } from './stdio-json-rpc-server-transport.js';
