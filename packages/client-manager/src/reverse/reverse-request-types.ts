/** Requests a backend sends to the client side (sampling, elicitation, roots) and who answers them (types only). */
import type { McpClientCapabilities } from '@search-mcp/shared';

export type ReverseRequestMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/** Which client request a backend request serves. Opaque to the manager (the MCP server side passes its session). */
export type RequestOrigin = object;

/** A request of ours to a backend that is waiting for its answer, with the client request it serves. */
export interface InFlightRequest {
  readonly origin: RequestOrigin;
  /** `tools/call`, `prompts/get`, `resources/read`, `completion/complete`, `tasks/result`. */
  readonly method: string;
  /** The tool, prompt or uri. */
  readonly name?: string;
  /** `performance.now()` when it was sent. */
  readonly startedAt: number;
}

/** A backend's request for the client: everything the SDK lets us know about who caused it. */
export interface ReverseRequest {
  readonly serverId: string;
  readonly method: ReverseRequestMethod;
  /** The backend's own JSON-RPC id of the request. */
  readonly backendRequestId: string | number;
  /** As the backend sent them, `_meta` included. */
  readonly params: Record<string, unknown>;
  /** Requests of ours to this server waiting now, most recent first. */
  readonly inFlight: readonly InFlightRequest[];
  /** The task the request belongs to (`_meta["io.modelcontextprotocol/related-task"]`): an exact link. */
  readonly relatedTaskId?: string;
  /**
   * The origin of the request of ours on whose Streamable HTTP response stream this request came: exact. Absent for
   * stdio and SSE backends (no such channel), for requests a backend sends outside any call, and for calls without
   * an origin.
   */
  readonly exactOrigin?: RequestOrigin;
  /** Aborted when the backend cancels the request or its connection closes. */
  readonly signal: AbortSignal;
}

/**
 * Answers backends' reverse requests (the MCP server side implements it: it knows the client sessions). Without a
 * router the manager announces no client capabilities and backends get `-32601` for such requests.
 */
export interface ReverseRequestRouter {
  /**
   * What backends are told the client can do. Without `origin`: asked at every connect of `serverId` (a 2025
   * backend is told it in `initialize`). With `origin`: asked for each request to a 2026-07-28 backend made for a
   * client (`origin` as given to the forwarding method), whose envelope declares exactly that: what the client the
   * request serves can answer (so a backend refuses with `-32021` what that client could not give it).
   */
  clientCapabilities(serverId: string, origin?: RequestOrigin): McpClientCapabilities;
  /**
   * The client's result, or a rejection whose numeric `code`, `message` and `data` go to the backend. Must never
   * hang: time out and reject instead.
   */
  route(request: ReverseRequest): Promise<Record<string, unknown>>;
}
