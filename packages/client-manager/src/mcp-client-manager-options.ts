import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { Logger, SecretRedactor, ServerState, ServerStatus, ToolInfo } from '@search-mcp/shared';
import type { RestartPolicy } from './connection/restart-policy.js';

export interface McpClientManagerOptions {
  /** Where the manager logs (JSON lines to stderr at `warn` by default). Never stdout: it belongs to stdio MCP. */
  logger?: Logger;
  /** Name and version sent to backends in `initialize`. */
  clientInfo?: Implementation;
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
  fetch?: FetchLike;
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
}

export interface McpClientManagerEvents {
  /** A server changed state. */
  'status-change': [status: ServerStatus, previous: ServerState];
  /** A server's tool list changed: connected, refreshed after `tools/list_changed`, or emptied (stop, crash). */
  'tools-changed': [serverId: string, tools: readonly ToolInfo[]];
}

export interface HealthCheckOptions {
  /** How long each ping may take. Default 5,000 ms. */
  timeoutMs?: number;
}
