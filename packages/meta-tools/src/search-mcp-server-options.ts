import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Implementation, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Caller, ToolCatalog } from '@search-mcp/catalog';
import type { Logger, ServerStatus } from '@search-mcp/shared';
import type { AuditSink } from './audit/audit-record.js';
import type { ForwardingHub } from './forwarding-hub.js';

/** What the server needs from a client manager: states (for start-up), state changes and tool-list changes. */
export interface ServerStatusSource {
  status(): ServerStatus[];
  on(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
  off(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
}

/** What the SDK passes a request handler: the request's id, session, abort signal and a way to notify. */
export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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
  /** How long `initialize` waits for the caller's servers still starting, for their instructions. Default 3,000 ms. */
  instructionsWaitMs?: number;
  /** Called when the client's `initialize` arrives (its capabilities are known), before it is answered. */
  onInitialize?: (server: Server) => void;
}
