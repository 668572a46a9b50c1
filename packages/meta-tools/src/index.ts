/**
 * `@search-mcp/meta-tools`: builds the MCP server AI clients see from a tool catalog and a status source.
 */
export { createSearchMcpServer } from './create-search-mcp-server.js';
export type { RequestExtra, SearchMcpServerOptions, ServerStatusSource } from './search-mcp-server-options.js';
export type { AuditRecord, AuditSink } from './audit/audit-record.js';

// Deprecated: moved to @search-mcp/runtime; kept until both apps import them from there.
export { createJsonlAuditSink, createSearchMcpRuntime } from './deprecated-runtime.js';
export type { SearchMcpRuntime, SearchMcpRuntimeOptions } from './deprecated-runtime.js';
