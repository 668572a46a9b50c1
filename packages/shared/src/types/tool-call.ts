import type { InputRetry } from './input-required.js';
import type { ServerState } from './server-status.js';
import type { ToolInfo } from './tool-info.js';

/**
 * The result of a tool call as MCP defines it (`CallToolResult`), kept structural so packages that do not depend on
 * the SDK (the catalog) can carry it. Unknown fields pass through.
 */
export interface ToolCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A progress notification of a running call. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Options of one call. `inputResponses` and `requestState` (`InputRetry`) make it the retry of a call that answered
 * `input_required` (a 2026-07-28 backend only; any other source rejects them).
 */
export interface ToolCallOptions extends InputRetry {
  /** Per-call timeout; each progress notification restarts it. */
  timeoutMs?: number;
  /** Cancels the call; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /** `_meta` to send with the request. */
  meta?: Record<string, unknown>;
  /**
   * Which client request this call serves (opaque to the source). A backend's reverse request (sampling,
   * elicitation, roots) made while the call is in flight is attributed to it.
   */
  origin?: object;
  /**
   * Run the call as a task (MCP 2025-11-25 tasks): the source resolves with the backend's `{ task }` (a
   * `CreateTaskResult`) instead of waiting for the result. `ttl` in milliseconds.
   */
  task?: { ttl?: number };
  /**
   * Who the call is for, for a server whose accounts are per caller (`identity: "per-user"`, docs/oauth-in-front.md):
   * it runs on that caller's own connection, authorized with their own account. The catalog passes the caller's token
   * id (`oauth:<sub>` for an OAuth caller). Absent (stdio, the CLI, an anonymous HTTP caller): the server's shared
   * connection. Other servers ignore it.
   */
  subject?: string;
}

/**
 * Where the catalog takes tools from. `McpClientManager` (backend servers) and `ToolRegistry` (in-process tools)
 * both satisfy it, so the catalog needs neither the SDK nor child processes.
 */
export interface ToolSource {
  /** Every tool this source can run now (running servers, enabled registry tools). */
  listAllTools(): Promise<ToolInfo[]>;
  /** The result; from a 2026-07-28 backend it may be an `InputRequiredResult` (`isInputRequiredResult`). */
  callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options?: ToolCallOptions,
  ): Promise<ToolCallResult>;
  /** Grows whenever the tool list changes: a cache of `listAllTools()` is valid while this stays the same. */
  readonly toolsRevision: number;
  /** The server ids this source answers for, running or not (so a call to a stopped server says so). */
  readonly serverIds: readonly string[];
  /**
   * The current state of one of `serverIds` (undefined for others). Lets the catalog tell a server that is down from
   * a running one that lists no tool the caller may see; without it the catalog guesses from the listed tools.
   */
  serverState?(serverId: string): ServerState | undefined;
}
