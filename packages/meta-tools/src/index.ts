/**
 * `@search-mcp/meta-tools`: builds the MCP server AI clients see from a tool catalog and a status source.
 */
export { createSearchMcpServer } from './create-search-mcp-server.js';
export type { RequestExtra, SearchMcpServerOptions, ServerStatusSource } from './search-mcp-server-options.js';
export type { AuditRecord, AuditSink } from './audit/audit-record.js';
