import type { Transport } from '@modelcontextprotocol/server';
import type { Caller, CallerAccess } from '@search-mcp/catalog';

/** What a session's MCP server is made with: who its requests come from, and the project it opened with. */
export interface McpServerOverrides {
  resolveCaller: (request: { meta: Record<string, unknown> | undefined }) => Caller;
  projectId?: string;
  /** An OAuth caller's roles: the server's instructions name only the servers they allow. */
  access?: CallerAccess;
  /** A server for one stateless request: no stream outside the request, so nothing is pushed to the client. */
  stateless?: boolean;
}

/**
 * One session's (or stateless request's) MCP server, connected to its transport: the runtime's connection, which
 * serves the protocol era the client opens with.
 */
export interface McpServerConnection {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** Makes one MCP server per session (the runtime's `createServer`), over the runtime's shared manager and catalog. */
export type McpServerFactory = (overrides: McpServerOverrides) => McpServerConnection;
