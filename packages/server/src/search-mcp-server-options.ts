import type { Implementation, Server } from '@modelcontextprotocol/server';
import type { Caller, CallerAccess, ToolCatalog } from '@search-mcp/catalog';
import type { Logger, ServerState, ServerStatus } from '@search-mcp/shared';
import type { AuditSink } from './audit/audit-record.js';
import type { ForwardingHub } from './forwarding-hub.js';
import type { PendingInputs } from './input/pending-inputs.js';
import type { RequestExtra } from './request-extra-types.js';

/** What the server needs from a client manager: states (for start-up), state changes and tool-list changes. */
export interface ServerStatusSource {
  status(): ServerStatus[];
  /** One server's state, without building every status (a call's check of its own server). */
  serverState?(id: string): ServerState | undefined;
  on(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
  off(event: 'tools-changed' | 'status-change', listener: () => void): unknown;
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
  /** The caller's roles (an OAuth caller of the HTTP app): `instructions` name only the servers they allow. */
  access?: CallerAccess;
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
   * How long `tool_discovery` waits for servers still starting that have no tool list kept from an earlier run (the
   * very first session; README, "Discovery before the servers are up"); servers with one are searched in it at once.
   * Default 30,000 ms (a cold `npx` start takes up to about 20 s); 0 = never.
   */
  discoveryWaitMs?: number;
  /**
   * Forwards resources, prompts, completions, logging, tasks and backends' requests to the client (sampling,
   * elicitation, roots) through the runtime's shared hub. Without one, only tools are served.
   */
  hub?: ForwardingHub;
  /**
   * The calls held for a 2026-07-28 client's retry and the key that seals our `requestState` (`PendingInputs`). A
   * retry is a new request, and may reach a new server instance (Streamable HTTP builds one per 2026-07-28 request):
   * every instance that serves the same clients needs the same one. Default: the hub's (`ForwardingHub.pendingInputs`,
   * one per hub, as in `createSearchMcpRuntime`), else a new one for this instance.
   */
  pendingInputs?: PendingInputs;
  /** HTTP stateless mode: no stream outside a request, so no subscriptions, no log messages, no reverse requests. */
  stateless?: boolean;
  /**
   * The longest `initialize` (2026-07-28: `server/discover`) waits for the caller's servers still starting, for their
   * own instructions. A server whose last connect in this process took longer is not waited for; those still starting
   * are named in the instructions. Default 500 ms, and then only for servers that connected before in this process
   * (a server never connected is not waited for: the first answer stays fast); set, it waits for those too. 0 = never.
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
