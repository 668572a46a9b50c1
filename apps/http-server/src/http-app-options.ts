import type { ToolCatalog } from '@search-mcp/catalog';
import type { ClusterStore } from '@search-mcp/cluster';
import type { AuditFeed, ReplicaFanOut } from '@search-mcp/runtime';
import type { Logger, OAuthResourceConfig, SecretRedactor, ServerState, ServerStatus } from '@search-mcp/shared';
import type { AccessToken } from './access/token-verifier.js';
import type { EraServerFactory } from './mcp/era-server-factory.js';
import type { McpServerFactory } from './mcp/mcp-server-factory.js';
import type { ListenHub } from './mcp/listen-streams.js';
import type { StatsRouteContext } from './rest/stats-route.js';
import type { ToolRanker } from './rest/tool-ranker.js';

/** What the app takes from the composition root (`createSearchMcpRuntime`): it holds no search or tool logic. */
export interface HttpRuntime {
  readonly catalog: ToolCatalog;
  /** The runtime's audit feed: REST records go in; the console's activity (and whoever else listens) hears them. */
  readonly audit?: AuditFeed;
  createServer: McpServerFactory;
  /** One server per request of an era: with it, 2026-07-28 clients are served next to the 2025 sessions. */
  serverFactory?: EraServerFactory;
  /** Where 2026-07-28 `subscriptions/listen` streams hear of backend changes (the runtime's hub). */
  hub?: ListenHub;
  /** The calls of 2026-07-28 clients waiting for their `input_required` retry (counted on `GET /`). */
  pendingInputs?: { readonly size: number };
  /** The backend servers (the runtime's client manager): their state on `/v1/servers`, and OAuth to them. */
  readonly manager?: BackendServers;
  /** The runtime's usage statistics: `GET /v1/stats` (docs/console.md, "Usage statistics"). */
  readonly usage?: StatsRouteContext['usage'];
  /** The other replicas, told of admin actions (the runtime's `replicas`, docs/scale-out.md). */
  readonly replicas?: AdminActionReplicas;
}

/** What the admin routes tell the other replicas (the runtime's `ReplicaFanOut`). */
export type AdminActionReplicas = Pick<ReplicaFanOut, 'shared' | 'publish'>;

/** What the app asks of the client manager about backend servers (`McpClientManager` has these methods). */
export interface BackendServers {
  status(): ServerStatus[];
  /** With `subject`, a per-user server's authorization for that caller (docs/oauth-in-front.md). */
  beginAuthorization(
    id: string,
    options: { redirectUrl: string; subject?: string },
  ): Promise<{ authorizationUrl?: string }>;
  completeAuthorization(query: URLSearchParams): Promise<ServerStatus>;
  /** The console's actions (docs/console.md): restart, enable (start) and disable (stop) one server. */
  restart(id: string): Promise<void>;
  start(id: string): Promise<void>;
  stop(id: string): Promise<void>;
  /** A server's state changed: the console's events and live stream. */
  on(event: 'status-change', listener: (status: ServerStatus, previous: ServerState) => void): unknown;
  off(event: 'status-change', listener: (status: ServerStatus, previous: ServerState) => void): unknown;
}

export interface HttpAppOptions {
  runtime: HttpRuntime;
  logger: Logger;
  /** Accepted tokens (from the config, or the generated one). */
  tokens: readonly AccessToken[];
  /** Let requests without a token in (as no token, no project limit). */
  allowAnonymous: boolean;
  /**
   * `auth.oauth`: the app as an OAuth-protected resource (docs/oauth-in-front.md). Bearer tokens that are no static
   * token are checked as access tokens of `issuer` for this resource; static tokens keep working beside them.
   */
  oauth?: OAuthResourceConfig;
  /** The fetch the OAuth token checks use (issuer metadata, JWKS, introspection). Default: global fetch. */
  oauthFetch?: typeof fetch;
  /** Masks configured secrets in every response body, MCP message and audit line. Default: masks nothing. */
  redactor?: SecretRedactor;
  stateless?: boolean;
  /** Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Open MCP sessions at most, all tokens together. Default 100. */
  maxSessions?: number;
  /**
   * Open MCP sessions at most per token. Default: an equal share of `maxSessions` for each accepted token (and one
   * more share for anonymous callers when allowed), at least 1, so no token can take another's slots.
   */
  maxSessionsPerToken?: number;
  /** Open 2026-07-28 `subscriptions/listen` streams at most, all tokens together. Default: `maxSessions`. */
  maxListenStreams?: number;
  /** Open listen streams at most per token. Default: the per-token share of sessions. */
  maxListenStreamsPerToken?: number;
  /**
   * Whether a 2026-07-28 client's `tools/call` and `tools/list` are answered on a server instance connected once per
   * caller (default true), or, like every other 2026-07-28 request, through the SDK's `createMcpHandler` with an
   * instance connected for the request (README, "The 2026-07-28 leg"). The answers are the same; the connected way
   * costs the SDK about a third of the CPU per request.
   */
  connectedModernCalls?: boolean;
  /** Largest request body. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Requests per minute per token (per address without one). 0 turns it off. Default 6,000. */
  rateLimitPerMinute?: number;
  /**
   * The state replicas share (packages/cluster/README.md): rate-limit windows and whatever else must hold across
   * replicas. `search-mcp-http` passes the Redis store with `cluster` in the config. Default: an in-process store the
   * app creates and closes (one replica, as before). A store passed here is the caller's to close.
   */
  clusterStore?: ClusterStore;
  /** Browser origins allowed (CORS and the Origin check). Default none: CORS off. */
  corsOrigins?: readonly string[];
  /**
   * Host names the `Host` header may name (DNS-rebinding protection). Default: this machine's loopback names.
   * `null` turns the check off (a server bound to every interface whose names are not known).
   */
  allowedHosts?: readonly string[] | null;
  /** Wrong tokens per minute per client address before they are answered 429. Default 30. */
  failedAuthenticationLimitPerMinute?: number;
  /** How long `close()` lets calls in flight finish before it answers the rest 503. Default 2,000 ms. */
  shutdownGraceMs?: number;
  /**
   * How long `close()` keeps serving with `GET /readyz` at 503 before it stops taking requests, so a load balancer
   * notices first (docs/scale-out.md, "Probes and drain"). Only when something has asked `/readyz`. Default 5,000 ms.
   */
  drainMs?: number;
  /**
   * Ranks the tools of a `POST /catalog/search` request. Default: the catalog's search with the caller's configured
   * strategy (`rankToolsWithCatalog`).
   */
  rankTools?: ToolRanker;
  /**
   * The URL clients reach this app at (`--public-url`, e.g. `https://search.example` behind a TLS proxy): the base of
   * the OAuth redirect URI `<publicUrl>/oauth/callback`. Default: the origin of the request that starts the
   * authorization (its `Host` header, which the Host check has already accepted).
   */
  publicUrl?: string;
  /**
   * The web console's built files, served at `/ui` (docs/console.md). Default: `dist/console` of this package (or,
   * in its repository, `@search-mcp/console`'s `dist`); `null`: no console files (`/ui` answers 404).
   */
  consoleDirectory?: string | null;
  /** The config file the runtime was loaded from: shown by `GET /v1/config`. */
  configPath?: string;
  /** Shown by `GET /` and in the OpenAPI document. Default: this package's version. */
  version?: string;
}

export const httpAppDefaults = {
  sessionIdleTimeoutMs: 30 * 60_000,
  maxSessions: 100,
  bodyLimitBytes: 1024 * 1024,
  rateLimitPerMinute: 6000,
  failedAuthenticationLimitPerMinute: 30,
  shutdownGraceMs: 2000,
  drainMs: 5000,
} as const;

/** The default per-token session cap: an equal share of the total for each principal that may open sessions. */
export function defaultMaxSessionsPerToken(maxSessions: number, tokenCount: number, allowAnonymous: boolean): number {
  const principals = Math.max(1, tokenCount + (allowAnonymous ? 1 : 0));
  return Math.max(1, Math.floor(maxSessions / principals));
}
