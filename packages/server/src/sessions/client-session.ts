import type { ClientCapabilities, Server } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import type { ParkedCall } from '../input/parked-call.js';
import type { RequestExtra } from '../request-extra-types.js';

/** One client connection of Search MCP (a stdio connection or an HTTP session): one `createSearchMcpServer` server. */
export interface ClientSession {
  /** Unique per session, never reused. */
  readonly key: string;
  readonly server: Server;
  /** HTTP stateless: no stream to send anything on outside a request, never initialised. */
  readonly stateless: boolean;
  /**
   * `modern`: a 2026-07-28 client. It has no server-to-client requests: a backend's elicitation, sampling or roots
   * request during its call is parked in the call (`ClientOrigin.parked`) and asked by an `input_required` round.
   */
  readonly era: 'legacy' | 'modern';
  /** The caller of the session's latest request (its token and project). */
  caller(): Caller;
  /** What the client declared in `initialize`; undefined before. */
  capabilities(): ClientCapabilities | undefined;
  /** Resolves once the client finished connecting (2025: `notifications/initialized`). */
  connected?(): Promise<void>;
  /** Whether this session's caller may see the server (config: enabled, project). */
  canSee(serverId: string): boolean;
}

/** Which client request a backend request serves: handed to the client manager as the request's `origin`. */
export interface ClientOrigin {
  readonly session: ClientSession;
  /** The request that started the call (2025: the stream a backend's request to the client goes on). */
  readonly extra: RequestExtra;
  /** A 2026-07-28 client's call: where a backend's request to the client waits for the client's retry. */
  readonly parked?: ParkedCall;
}
