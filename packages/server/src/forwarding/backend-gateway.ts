import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { InputRetry, ServerStatus, ToolProgress } from '@search-mcp/shared';

/**
 * What meta-tools needs of the client manager to forward resources, prompts, completions, logging and tasks. Kept
 * structural (types only) so this package does not depend on the manager: `McpClientManager` satisfies it.
 */
export interface BackendGateway {
  status(): ServerStatus[];
  // One overload per event (not one generic signature), so a typed `EventEmitter` with more events satisfies it.
  on(event: 'status-change' | 'tools-changed', listener: () => void): unknown;
  on(event: 'log-message', listener: (...args: BackendGatewayEvents['log-message']) => void): unknown;
  on(event: 'resource-updated', listener: (...args: BackendGatewayEvents['resource-updated']) => void): unknown;
  on(event: 'resources-changed' | 'prompts-changed', listener: (serverId: string) => void): unknown;
  on(event: 'task-status', listener: (...args: BackendGatewayEvents['task-status']) => void): unknown;
  on(event: 'elicitation-complete', listener: (...args: BackendGatewayEvents['elicitation-complete']) => void): unknown;
  off(event: 'status-change' | 'tools-changed', listener: () => void): unknown;
  off(event: 'log-message', listener: (...args: BackendGatewayEvents['log-message']) => void): unknown;
  off(event: 'resource-updated', listener: (...args: BackendGatewayEvents['resource-updated']) => void): unknown;
  off(event: 'resources-changed' | 'prompts-changed', listener: (serverId: string) => void): unknown;
  off(event: 'task-status', listener: (...args: BackendGatewayEvents['task-status']) => void): unknown;
  off(
    event: 'elicitation-complete',
    listener: (...args: BackendGatewayEvents['elicitation-complete']) => void,
  ): unknown;
  /**
   * The `origin`s (`BackendRequestOptions.origin`) of the requests to a server in flight now: a 2026-07-28 client
   * hears a server's log messages only inside these requests of its own.
   */
  inFlightOrigins(serverId: string): readonly object[];
  /** What the server announced on its current connection; undefined while it is not running. */
  serverCapabilities(serverId: string): Readonly<Record<string, unknown>> | undefined;
  serverInstructions(serverId: string): string | undefined;
  listResources(
    serverId: string,
    cursor?: string,
    options?: BackendRequestOptions,
  ): Promise<Page<'resources', Listed & { uri: string; name: string }>>;
  listResourceTemplates(
    serverId: string,
    cursor?: string,
    options?: BackendRequestOptions,
  ): Promise<Page<'resourceTemplates', Listed & { uriTemplate: string; name: string }>>;
  readResource(serverId: string, uri: string, options?: BackendRequestOptions): Promise<Record<string, unknown>>;
  subscribeResource(serverId: string, uri: string, options?: BackendRequestOptions): Promise<void>;
  unsubscribeResource(serverId: string, uri: string, options?: BackendRequestOptions): Promise<void>;
  listPrompts(
    serverId: string,
    cursor?: string,
    options?: BackendRequestOptions,
  ): Promise<Page<'prompts', Listed & { name: string }>>;
  getPrompt(
    serverId: string,
    name: string,
    args?: Record<string, string>,
    options?: BackendRequestOptions,
  ): Promise<Record<string, unknown>>;
  complete(serverId: string, params: CompleteParams, options?: BackendRequestOptions): Promise<Record<string, unknown>>;
  setLoggingLevel(serverId: string, level: LoggingLevel, options?: BackendRequestOptions): Promise<void>;
  sendRootsListChanged(serverId: string): Promise<void>;
  /** Task methods: a gateway without them forwards no tasks (`tasks/*` answer `-32601`). */
  getTask?(serverId: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>>;
  getTaskResult?(serverId: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>>;
  cancelTask?(serverId: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>>;
  /**
   * `tasks/update` of the 2026-07-28 tasks extension: answers the `inputRequests` a 2026 backend's task in
   * `input_required` shows in `getTask`, keyed as the backend asked. A gateway without it leaves such input unanswered.
   */
  updateTask?(
    serverId: string,
    taskId: string,
    inputResponses: Record<string, unknown>,
    options?: BackendRequestOptions,
  ): Promise<Record<string, unknown>>;
}

/** An entry of a backend list, passed through unchanged. */
export type Listed = Record<string, unknown>;

/** One page of a backend list. */
export type Page<K extends string, T> = { [P in K]: T[] } & { nextCursor?: string; _meta?: Record<string, unknown> };

export interface CompleteParams {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** How one request is sent to a backend. `origin` says which client request it serves (for reverse requests). */
/** What a forwarded request may carry; a retry of an `input_required` round adds the client's answers and state. */
export interface BackendRequestOptions extends InputRetry {
  signal?: AbortSignal;
  timeoutMs?: number;
  meta?: Record<string, unknown>;
  onProgress?: (progress: ToolProgress) => void;
  origin?: object;
}

/** The manager's events meta-tools listens to. */
export interface BackendGatewayEvents {
  'status-change': [];
  'tools-changed': [];
  'log-message': [serverId: string, params: { level: LoggingLevel; logger?: string; data: unknown } & Listed];
  'resource-updated': [serverId: string, params: { uri: string } & Listed];
  'resources-changed': [serverId: string];
  'prompts-changed': [serverId: string];
  'task-status': [serverId: string, params: { taskId: string; status: string } & Listed];
  'elicitation-complete': [serverId: string, params: { elicitationId: string }];
}
