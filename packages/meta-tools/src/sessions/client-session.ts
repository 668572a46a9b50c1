import type { Server } from '@modelcontextprotocol/server';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '@search-mcp/catalog';
import type { RequestExtra } from '../search-mcp-server-options.js';

/** One client connection of Search MCP (a stdio connection or an HTTP session): one `createSearchMcpServer` server. */
export interface ClientSession {
  /** Unique per session, never reused. */
  readonly key: string;
  readonly server: Server;
  /** HTTP stateless: no stream to send anything on outside a request, never initialised. */
  readonly stateless: boolean;
  /**
   * `modern`: a 2026-07-28 client. It has no server-to-client requests (a backend's elicitation or sampling would
   * need an `input_required` round trip, not forwarded yet), so none is sent to it.
   */
  readonly era: 'legacy' | 'modern';
  /** The caller of the session's latest request (its token and project). */
  caller(): Caller;
  /** What the client declared in `initialize`; undefined before. */
  capabilities(): ClientCapabilities | undefined;
  /** Whether this session's caller may see the server (config: enabled, project). */
  canSee(serverId: string): boolean;
}

/** Which client request a backend request serves: handed to the client manager as the request's `origin`. */
export interface ClientOrigin {
  readonly session: ClientSession;
  readonly extra: RequestExtra;
}
