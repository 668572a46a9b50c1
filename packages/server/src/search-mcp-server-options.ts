import type {
  AuthInfo,
  ClientCapabilities,
  Implementation,
  RequestOptions,
  Server,
  StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { Caller, ToolCatalog } from '@search-mcp/catalog';
import type { Logger, ServerState, ServerStatus } from '@search-mcp/shared';
import type { AuditSink } from './audit/audit-record.js';
import type { ForwardingHub } from './forwarding-hub.js';

/** What the server needs from a client manager: states (for start-up), state changes and tool-list changes. */
export interface ServerStatusSource {
  status(): ServerStatus[];
  /** One server's state, without building every status (a call's check of its own server). */
  serverState?(id: string): ServerState | undefined;
  on(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
  off(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
}

/**
 * What a handler of Search MCP gets with a request, the same in both protocol eras: the request's id, session (2025
 * Streamable HTTP), abort signal, and ways to notify and ask the client on the request's own stream.
 */
export interface RequestExtra {
  readonly requestId: string | number;
  readonly signal: AbortSignal;
  readonly sessionId?: string | undefined;
  /** The caller's credentials, when the HTTP entry verified them. */
  readonly authInfo?: AuthInfo | undefined;
  /** The request's `_meta` (progress token, project id); 2026-07-28 envelope keys are in `envelope`. */
  readonly _meta?: Record<string, unknown> | undefined;
  /** 2026-07-28: the client's protocol version, info and capabilities this request carried. */
  readonly envelope?: Record<string, unknown> | undefined;
  /** `legacy` = 2025 revisions (`initialize` handshake), `modern` = 2026-07-28 (per-request envelope). */
  readonly era: 'legacy' | 'modern';
  /**
   * What the client can be asked (sampling, elicitation, roots): 2026-07-28 = this request's envelope, 2025 = its
   * `initialize`.
   */
  readonly clientCapabilities?: ClientCapabilities | undefined;
  /**
   * A retried multi-round-trip request (2026-07-28, or the SDK's legacy shim re-entering the handler): the client's
   * answers to our `inputRequests`, by key, and our `requestState` echoed (unverified: see `input/`).
   */
  readonly inputResponses?: Record<string, unknown> | undefined;
  readonly requestState?: string | undefined;
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  /** A request to the client on this request's stream (2025 era only: a 2026 client is asked by `input_required`). */
  sendRequest(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: StandardSchemaV1,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>>;
}

export interface SearchMcpServerOptions {
  catalog: ToolCatalog;
  /** The client manager: lets discovery say which servers are still starting, and drives `tools/list_changed`. */
  manager?: ServerStatusSource;
  /** Default `exposure.mode` of the catalog's config. */
  mode?: 'meta' | 'proxy';
  /** Tool keys listed next to the meta-tools in meta mode. Default `exposure.pinned`. */
  pinned?: readonly string[];
  logger?: Logger;
  audit?: AuditSink;
  /** The project of requests that name none in `_meta.projectId` (CLI `--project`, header `X-Project-Id`). */
  projectId?: string;
  /** Decides the caller of each request; by default `_meta.projectId`, else `projectId`, and no token. */
  resolveCaller?: (request: { meta: Record<string, unknown> | undefined; extra: RequestExtra }) => Caller;
  /** Default `{ name: 'search-mcp', version: <this package's version> }`. */
  serverInfo?: Implementation;
  /** Quiet time before `notifications/tools/list_changed` after backend tool lists change. Default 200 ms. */
  listChangedDebounceMs?: number;
  /**
   * How long a discovery waits for servers that are still starting before it searches what is connected (and says
   * what is not). The first question of a session usually comes right after start-up. Default 5,000 ms; 0 = never.
   */
  startupWaitMs?: number;
  /**
   * Forwards resources, prompts, completions, logging, tasks and backends' requests to the client (sampling,
   * elicitation, roots) through the runtime's shared hub. Without one, only tools are served.
   */
  hub?: ForwardingHub;
  /** HTTP stateless mode: no stream outside a request, so no subscriptions, no log messages, no reverse requests. */
  stateless?: boolean;
  /**
   * The longest `initialize` (2026-07-28: `server/discover`) waits for the caller's servers still starting, for their
   * own instructions. A server whose last connect in this process took longer is not waited for; those still starting
   * are named in the instructions. Default 500 ms; 0 = never.
   */
  instructionsWaitMs?: number;
  /**
   * The protocol era this instance serves, as the serving entry decided (`serveStdio`, `createMcpHandler`: their
   * factory context). `modern` (2026-07-28) answers carry cache hints; a backend's request to the client is refused
   * for a modern client (it has no server-to-client requests). Default `legacy` (a server connected directly).
   */
  era?: 'legacy' | 'modern';
  /** Called when the client's `initialize` (or 2026 `server/discover`) arrives, before it is answered. */
  onInitialize?: (server: Server) => void;
}
