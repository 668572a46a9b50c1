/**
 * Life of one backend server:
 * - `starting`: connecting (first start or a restart in progress)
 * - `running`: connected, tools listed
 * - `crashed`: the connection ended unexpectedly; a restart is scheduled
 * - `stopped`: stopped on purpose (`stop()`, `close()`), or not started yet
 * - `disabled`: `enabled: false` in the config
 * - `failed`: gave up (start failed, or restarts exhausted); `start()`/`restart()` try again
 * - `needs-auth`: a remote server that asks for OAuth authorization nobody has given yet (or that was revoked, or
 *   whose flow failed at a step); `lastError` names the step and the one command that fixes it
 *   (`search-mcp auth <server>`). Not retried on a timer: authorizing brings it up.
 */
export type ServerState = 'starting' | 'running' | 'crashed' | 'stopped' | 'disabled' | 'failed' | 'needs-auth';

export type ServerTransportKind = 'stdio' | 'http' | 'sse';

export interface ServerStatus {
  id: string;
  state: ServerState;
  /** The transport in use (for url-without-type servers: the one that worked), when known. */
  transport?: ServerTransportKind;
  /** Process id of a stdio server while it runs. */
  pid?: number;
  toolCount: number;
  /** ISO time of the current connection. */
  connectedAt?: string;
  /** Milliseconds the last successful connect took (spawn/initialize/tools/list). */
  connectMs?: number;
  /** The last error, with the last lines the server wrote to stderr when it is a stdio server. */
  lastError?: string;
  /** Restarts after crashes since the server was started on purpose. */
  restarts: number;
  /** The backend's own name and version from `initialize`. */
  serverInfo?: { name: string; version: string };
  /**
   * The MCP protocol revision this connection speaks (e.g. `2025-11-25` from `initialize`, or `2026-07-28`), while
   * running.
   */
  protocolVersion?: string;
  /**
   * The protocol era of the connection, while running: `legacy` (the 2025 revisions, an `initialize` handshake) or
   * `modern` (2026-07-28 and later: no handshake, version and capabilities in every request).
   */
  protocolEra?: 'legacy' | 'modern';
  /** What the backend offers beyond tools (from its capabilities), while running. */
  features?: ServerFeature[];
  /** A remote server's OAuth state (docs/oauth.md), when OAuth applies to it; never a token. */
  oauth?: ServerOAuthStatus;
  /**
   * A server with `identity: "per-user"` (docs/oauth-in-front.md): how many callers have a connection of their own open
   * now, and the most the manager keeps open at once. The fields above describe the server's shared connection.
   */
  perUser?: { connections: number; maxConnections: number };
  /** The sandbox a stdio server runs in (docs/trust.md, "Sandboxed servers"), when its config gives one. */
  sandbox?: 'bubblewrap' | 'docker';
}

/**
 * A remote server's OAuth state: `authorized` (tokens stored for it), `needs-auth` (it asked for authorization and
 * none is usable), `pending` (an authorization was opened and its callback has not come yet). Absent while the server
 * never asked for OAuth and nothing is stored for it.
 */
export interface ServerOAuthStatus {
  state: 'authorized' | 'needs-auth' | 'pending';
  /** The authorization server that issued the stored tokens. */
  issuer?: string;
  /** Granted scopes, space separated. */
  scope?: string;
  /** ISO time the access token expires, when the authorization server said. */
  expiresAt?: string;
  /** Whether a refresh token is stored (the access token is renewed without the user). */
  refreshable?: boolean;
}

/** An MCP feature a backend announces in its capabilities. */
export type ServerFeature = 'tools' | 'resources' | 'prompts' | 'completions' | 'logging' | 'tasks';

export interface ServerHealth {
  id: string;
  ok: boolean;
  /** Round trip of the health check (`ping`, or `server/discover` for a modern backend), when it answered. */
  latencyMs?: number;
  error?: string;
}
