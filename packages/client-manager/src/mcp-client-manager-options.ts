import type {
  Logger,
  McpFetchLike,
  McpImplementation,
  SecretRedactor,
  ServerState,
  ServerStatus,
  ToolInfo,
} from '@search-mcp/shared';
import type { LogMessageParams, TaskStatusParams } from './backend-notification-params.js';
import type { LogRateLimit } from './connection/log-rate-limit.js';
import type { RestartPolicy } from './connection/restart-policy.js';
import type { McpClientManagerOAuthOptions } from './oauth/oauth-options.js';
import type { PerUserOptions } from './per-user/per-user-options.js';
import type { ReverseRequestRouter } from './reverse/reverse-request-types.js';
import type { ToolListCache } from './tool-list-cache.js';
import type { PrestartedServer } from './process/prestarted-server.js';

export interface McpClientManagerOptions {
  /** Where the manager logs (JSON lines to stderr at `warn` by default). Never stdout: it belongs to stdio MCP. */
  logger?: Logger;
  /** Name and version sent to backends in `initialize`. */
  clientInfo?: McpImplementation;
  /** Backoff for crashed servers; missing fields use the defaults (1 s doubling to 30 s, 8 tries, 60 s stable). */
  restartPolicy?: Partial<RestartPolicy>;
  /** Stderr lines kept per stdio server for `lastError`. Default 20. */
  stderrTailLines?: number;
  /**
   * How long stopping a stdio server waits after closing its stdin, and again after SIGTERM, before it kills the
   * process group. Default 2,000 ms.
   */
  shutdownGraceMs?: number;
  /** fetch for Streamable HTTP and SSE servers (e.g. with a proxy agent). */
  fetch?: McpFetchLike;
  /**
   * Stdio servers already started for this manager (`prestartStdioServer` from `@search-mcp/client-manager/prestart`):
   * the first start of each entry adopts its process when the launch it computes from the config is exactly the one
   * started (command, arguments, environment, working directory; a sandboxed entry never matches), and ends it
   * unused otherwise. `close()` ends every one not adopted.
   */
  prestarted?: readonly PrestartedServer[];
  /** Variables for `${VAR}` expansion when `config` is not parsed yet. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Masks secrets in everything the manager reports: logs (stderr lines included), `lastError`, stderr tails and
   * every error it throws. Default: built from the config it is given
   * (`createSecretRedactor(collectConfigSecrets(config))`); pass the host's own to share one across printers.
   */
  redactor?: SecretRedactor;
  /**
   * The longest a tool call may take in all, however often its progress notifications restart `timeoutMs`.
   * A server's `maxTotalTimeoutMs` and a call's own option take precedence. Default: ten times the call's
   * `timeoutMs`, and at least 10 minutes.
   */
  maxTotalTimeoutMs?: number;
  /**
   * Longest message a stdio server may send, in characters (≈ bytes of ASCII JSON). A longer reply is dropped and
   * its call fails with a clear error, so one runaway result cannot exhaust memory. Default 64 Mi.
   */
  maxMessageSize?: number;
  /**
   * Path of the process watchdog script: one small process per host that ends every stdio server's process group
   * the moment the host dies, SIGKILL included. Default: `watchdog.cjs` beside this package's `index.js` (in
   * `dist/`). `false` runs without it: `close()` and the host's `exit` handler still end servers, SIGKILL does not.
   * When the default script is missing (the package was bundled into one file), a warning is logged.
   */
  watchdogScript?: string | false;
  /**
   * Answers backends' `sampling/createMessage`, `elicitation/create` and `roots/list` (the MCP server side, which
   * knows the client sessions). Backends are told the capabilities it returns. Without one the manager declares no
   * client capabilities and backends get `-32601` for such requests.
   */
  reverseRequests?: ReverseRequestRouter;
  /**
   * Log messages (`notifications/message`) each backend may send: a steady rate per second and a burst. More are
   * dropped and counted in one `warning` a second. Default 50/s, burst 200.
   */
  logRateLimit?: LogRateLimit;
  /**
   * OAuth to remote servers that ask for it (docs/oauth.md): how a person is sent to authorize (default: the URL on
   * stderr and the system browser), where tokens are kept (default: the OS keyring, else a 0600 file).
   */
  oauth?: McpClientManagerOAuthOptions;
  /**
   * The connections kept for the callers of servers with `identity: "per-user"` (README, "Per-user servers"):
   * at most `maxConnections` per server (default 50), each closed after `idleTimeoutMs` without a call (default 10
   * minutes).
   */
  perUser?: PerUserOptions;
  /**
   * Where each server's last tool list is kept between runs (README, "Discovery before the servers are up"): while a
   * server is still starting, `listAllTools` offers its kept list (tools marked `cached`); each list a running server
   * sends is written there. Default: none (the runtime passes a file in the state folder).
   */
  toolListCache?: ToolListCache;
}

export interface McpClientManagerEvents {
  /** A server changed state. */
  'status-change': [status: ServerStatus, previous: ServerState];
  /**
   * One caller's own connection to a per-user server changed state (connected, waiting for their authorization,
   * closed when idle …). The server's own `status-change` is its shared connection's.
   */
  'per-user-status-change': [serverId: string, subject: string, status: ServerStatus, previous: ServerState];
  /** A server's tool list changed: connected, refreshed after `tools/list_changed`, or emptied (stop, crash). */
  'tools-changed': [serverId: string, tools: readonly ToolInfo[]];
  /** A backend's `notifications/message` (rate-limited; see `logRateLimit`), params as sent. */
  'log-message': [serverId: string, params: LogMessageParams];
  /** `notifications/resources/updated` of a subscribed uri, params as sent. */
  'resource-updated': [serverId: string, params: { uri: string } & Record<string, unknown>];
  /** A server's resource list changed: `list_changed`, or it connected or went away while offering resources. */
  'resources-changed': [serverId: string];
  /** The same for prompts. */
  'prompts-changed': [serverId: string];
  /** `notifications/tasks/status`, params as sent. */
  'task-status': [serverId: string, params: TaskStatusParams];
  /** `notifications/elicitation/complete` (URL-mode elicitation finished). */
  'elicitation-complete': [serverId: string, params: { elicitationId: string } & Record<string, unknown>];
}

export interface HealthCheckOptions {
  /** How long each ping may take. Default 5,000 ms. */
  timeoutMs?: number;
}
