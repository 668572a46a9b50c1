import { EventEmitter } from 'node:events';
import type { CallToolResult, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import {
  ConfigError,
  formatConfigPath,
  formatToolKey,
  isResolvedConfig,
  type Logger,
  parseConfig,
  type ResolvedConfig,
  type SearchMcpConfigInput,
  type ServerHealth,
  type ServerState,
  type ServerStatus,
  ToolDisabledError,
  type ToolInfo,
  ToolNotFoundError,
  type ToolSource,
} from '@search-mcp/shared';
import { loadConfig } from '@search-mcp/shared/node';
import type { CallToolOptions } from './connection/forward-tool-call.js';
import type { EmitManagerEvent } from './connection/notification-relays.js';
import type { ServerConnection } from './connection/server-connection.js';
import type {
  HealthCheckOptions,
  McpClientManagerEvents,
  McpClientManagerOptions,
} from './mcp-client-manager-options.js';
import { applyServerConfig } from './apply-server-config.js';
import { type ManagerWiring, wireManager } from './manager-wiring.js';
import type { ServerConfigChanges } from './server-config-changes.js';
import type { BackendRequestOptions } from './connection/backend-request-options.js';
import * as prompts from './features/prompt-forwarding.js';
import type { CompleteParams, PromptPage } from './features/prompt-forwarding.js';
import * as resources from './features/resource-forwarding.js';
import * as tasks from './features/task-forwarding.js';
import type { TaskStatusParams } from './connection/notification-relays.js';
import type { ResourcePage, ResourceTemplatePage } from './features/resource-forwarding.js';
import type { RequestOrigin } from './reverse/reverse-request-types.js';

/**
 * Connects Search MCP to its backend MCP servers and keeps them alive.
 *
 * ```ts
 * const manager = new McpClientManager({ mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } });
 * await manager.startAll();
 * const tools = await manager.listAllTools();
 * const result = await manager.callTool('everything', 'echo', { message: 'hi' });
 * await manager.close();
 * ```
 */
export class McpClientManager extends EventEmitter<McpClientManagerEvents> implements ToolSource {
  private currentConfig: ResolvedConfig;
  private connections = new Map<string, ServerConnection>();
  private readonly wiring: ManagerWiring;
  private readonly logger: Logger;
  private readonly options: McpClientManagerOptions;
  private revision = 0;
  private readonly taskTools = new Map<string, Set<string>>();
  private closed = false;
  /** True once `startAll` ran: a reload then starts the servers it adds. */
  private started = false;
  /** The reload in progress: reloads run one after the other. */
  private reconfiguring: Promise<unknown> = Promise.resolve();
  private readonly killOnExit = () => {
    for (const connection of this.connections.values()) connection.killNow();
  };

  /**
   * @throws ConfigError when `config` cannot be used at all (every problem listed, each with its JSON path). A broken
   * server entry is no error here: that server is `failed` with its `configError` and never started.
   */
  constructor(config: SearchMcpConfigInput | ResolvedConfig, options: McpClientManagerOptions = {}) {
    super();
    // Every MCP session of an HTTP app listens for tool changes on this one manager: hundreds are normal, not a leak.
    this.setMaxListeners(0);
    this.options = options;
    this.currentConfig = this.resolve(config);
    this.wiring = wireManager(this.currentConfig, options, {
      emit: this.emit.bind(this) as EmitManagerEvent,
      onStatusChange: (status, previous) => this.emit('status-change', status, previous),
      onToolsChanged: (serverId, tools) => this.toolsChanged(serverId, tools),
    });
    this.logger = this.wiring.logger;
    for (const serverConfig of Object.values(this.currentConfig.mcpServers)) {
      this.connections.set(serverConfig.id, this.wiring.createConnection(serverConfig));
    }
    // If the host exits without close() (an uncaught exception, process.exit), no server group may outlive it.
    process.once('exit', this.killOnExit);
  }

  /** The validated configuration (defaults filled, ids normalized, variables expanded); the latest after a reload. */
  get config(): ResolvedConfig {
    return this.currentConfig;
  }

  /** Reads, validates and resolves a config file (JSON with comments allowed). */
  static async fromFile(path: string, options: McpClientManagerOptions = {}): Promise<McpClientManager> {
    const config = await loadConfig(path, options.env ? { env: options.env } : {});
    return new McpClientManager(config, options);
  }

  /** Server ids in config order. */
  get serverIds(): string[] {
    return [...this.connections.keys()];
  }

  /**
   * Grows by one whenever any server's tool list changes. Cheap change detection for caches (a search index is
   * rebuilt only when this differs from the revision it was built at).
   */
  get toolsRevision(): number {
    return this.revision;
  }

  /**
   * Connects every enabled server in parallel. Resolves once each has connected or failed (never rejects for a
   * server: see `status()`); a slow or broken server delays nothing beyond its own `startupTimeoutMs`.
   */
  async startAll(): Promise<ServerStatus[]> {
    this.assertOpen();
    this.started = true;
    const enabled = [...this.connections.values()].filter((connection) => connection.config.enabled);
    await Promise.allSettled(enabled.map((connection) => connection.start()));
    return this.status();
  }

  /** Connects one server. Rejects with why it failed (`TimeoutError`, `ServerNotRunningError`). */
  async start(id: string): Promise<void> {
    this.assertOpen();
    const connection = this.connection(id);
    if (!connection.config.enabled) {
      throw new ConfigError({
        issues: [
          {
            path: formatConfigPath(['mcpServers', connection.config.name, 'enabled']),
            message: 'the server is disabled',
          },
        ],
      });
    }
    await connection.start();
  }

  /** Disconnects one server and ends its process tree. It stays down until `start`/`restart`. */
  async stop(id: string): Promise<void> {
    await this.connection(id).stop();
  }

  async restart(id: string): Promise<void> {
    this.assertOpen();
    await this.connection(id).restart();
  }

  /**
   * Applies a new config to running servers (hot reload): removed servers are stopped (process tree ended) and
   * forgotten; added ones are registered and, once `startAll` has run, started as it starts them; changed ones are
   * restarted with their new entry; unchanged ones are not touched (same process). Requests in flight on a removed
   * or changed server fail with an error naming the reload. Resolves once the started servers are connected or
   * failed; reloads run one after the other. `tools-changed` fires for each server whose tools came or went.
   * @throws ConfigError when `config` cannot be used at all; then nothing changed.
   */
  reconfigure(config: SearchMcpConfigInput | ResolvedConfig): Promise<ServerConfigChanges> {
    this.assertOpen();
    const applied = this.reconfiguring.then(() => this.applyConfig(config));
    this.reconfiguring = applied.catch(() => {});
    return applied;
  }

  /** Stops every server and ends every child process tree. The manager cannot be started again. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.connections.values()].map((connection) => connection.stop()));
    process.removeListener('exit', this.killOnExit);
  }

  /** The state of one configured server now; undefined for an id that is not configured. */
  serverState(id: string): ServerState | undefined {
    return this.connections.get(id)?.currentState;
  }

  /** Tools of every running server, in config order (permission-`false` tools left out). */
  async listAllTools(): Promise<ToolInfo[]> {
    const all: ToolInfo[] = [];
    for (const connection of this.connections.values()) {
      await connection.settled();
      all.push(...connection.listTools());
    }
    return all;
  }

  /** Tools of one server; empty while it is not running. */
  async listTools(id: string): Promise<ToolInfo[]> {
    const connection = this.connection(id);
    await connection.settled();
    return connection.listTools();
  }

  /**
   * Calls a tool and returns the backend's `CallToolResult` unchanged (including `isError`, `structuredContent`,
   * `_meta`). A server that is not running fails at once with `ServerNotRunningError` and is reconnected in the
   * background; backend errors become `BackendError`, timeouts `TimeoutError`; cancellation rejects with the
   * signal's reason. A 2026-07-28 backend may answer `input_required` instead: it resolves as that value
   * (`isInputRequiredResult` from `@search-mcp/shared`), unfulfilled; call again with `options.inputResponses` and
   * its `requestState` to retry (a 2025 backend given those rejects with `ValidationError`).
   */
  async callTool(
    id: string,
    toolName: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    const connection = this.connections.get(id);
    if (!connection) {
      throw new ToolNotFoundError({
        toolName: formatToolKey(id, toolName),
        message: `Tool not found: ${formatToolKey(id, toolName)} (no MCP server '${id}' is configured)`,
      });
    }
    if (Object.hasOwn(connection.config.toolPermissions, toolName) && !connection.config.toolPermissions[toolName]) {
      throw new ToolDisabledError({ toolName: formatToolKey(id, toolName), reason: 'toolPermissions' });
    }
    if (!options.task && this.taskTools.get(id)?.has(toolName)) {
      return (await tasks.runToolAsTask(connection, toolName, args, options, (listener) => {
        const relay = (serverId: string, params: TaskStatusParams) => serverId === id && listener(params);
        this.on('task-status', relay);
        return () => this.off('task-status', relay);
      })) as CallToolResult;
    }
    return connection.callTool(toolName, args, options);
  }

  /** `tasks/get` of a backend task, unchanged. */
  async getTask(id: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.getTask(this.connection(id), taskId, options);
  }

  /** `tasks/result`: waits until the task ends, then its result unchanged. */
  async getTaskResult(id: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.getTaskResult(this.connection(id), taskId, options);
  }

  /** One page of `tasks/list`; empty from a server that cannot list tasks. */
  async listTasks(id: string, cursor?: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.listTasks(this.connection(id), cursor, options);
  }

  async cancelTask(id: string, taskId: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return tasks.cancelTask(this.connection(id), taskId, options);
  }

  /** One page of a server's resources (URIs unchanged). A server without `resources`: an empty page. */
  async listResources(id: string, cursor?: string, options?: BackendRequestOptions): Promise<ResourcePage> {
    return resources.listResources(this.connection(id), this.logger, cursor, options);
  }

  /** One page of a server's resource templates. A server without `resources`: an empty page. */
  async listResourceTemplates(
    id: string,
    cursor?: string,
    options?: BackendRequestOptions,
  ): Promise<ResourceTemplatePage> {
    return resources.listResourceTemplates(this.connection(id), this.logger, cursor, options);
  }

  /**
   * Reads a resource; the backend's result (`{ contents }`) unchanged, or its `input_required` answer (retry with
   * `options.inputResponses` and `requestState`, as for `callTool`).
   */
  async readResource(id: string, uri: string, options?: BackendRequestOptions): Promise<Record<string, unknown>> {
    return resources.readResource(this.connection(id), uri, options);
  }

  /** Subscribes to a resource's updates (`resource-updated` events). Counted per uri; renewed after reconnects. */
  async subscribeResource(id: string, uri: string, options?: BackendRequestOptions): Promise<void> {
    return resources.subscribeResource(this.connection(id), uri, options);
  }

  /** Ends one subscription; the backend hears `unsubscribe` when none is left for the uri. */
  async unsubscribeResource(id: string, uri: string, options?: BackendRequestOptions): Promise<void> {
    return resources.unsubscribeResource(this.connection(id), uri, options);
  }

  /** One page of a server's prompts (names as the backend gives them). A server without `prompts`: empty. */
  async listPrompts(id: string, cursor?: string, options?: BackendRequestOptions): Promise<PromptPage> {
    return prompts.listPrompts(this.connection(id), this.logger, cursor, options);
  }

  /** Gets a prompt (`{ messages }`), or a 2026-07-28 backend's `input_required` answer (retry as for `callTool`). */
  async getPrompt(
    id: string,
    name: string,
    args?: Record<string, string>,
    options?: BackendRequestOptions,
  ): Promise<Record<string, unknown>> {
    return prompts.getPrompt(this.connection(id), name, args, options);
  }

  /** `completion/complete` for a prompt argument or a resource template variable. */
  async complete(
    id: string,
    params: CompleteParams,
    options?: BackendRequestOptions,
  ): Promise<Record<string, unknown>> {
    return prompts.complete(this.connection(id), params, options);
  }

  /** Sets a server's logging level; remembered and set again after every reconnect. */
  async setLoggingLevel(id: string, level: LoggingLevel, options?: BackendRequestOptions): Promise<void> {
    return prompts.setLoggingLevel(this.connection(id), level, options);
  }

  /** Sends `notifications/roots/list_changed` (when the router declared roots with `listChanged`). */
  async sendRootsListChanged(id: string): Promise<void> {
    return this.connection(id).sendRootsListChanged();
  }

  /** What a running server announced in `initialize`; undefined while it is not running. */
  serverCapabilities(id: string): Readonly<Record<string, unknown>> | undefined {
    return this.connection(id).capabilities();
  }

  /** A running server's `instructions`; undefined when it gave none or is not running. */
  serverInstructions(id: string): string | undefined {
    return this.connection(id).instructions();
  }

  /** Pings every running server; servers that are not running report `ok: false` with their state. */
  async healthCheck(options: HealthCheckOptions = {}): Promise<ServerHealth[]> {
    const timeoutMs = options.timeoutMs ?? 5000;
    return Promise.all([...this.connections.values()].map((connection) => connection.ping(timeoutMs)));
  }

  /**
   * The `origin`s of the calls to a server in flight now (`callTool`, `getPrompt`, `readResource`, `complete`,
   * `getTaskResult` given `options.origin`), newest first, one per call. A 2026-07-28 client hears a server's log
   * messages only inside its own requests: these are the requests a `log-message` of the server may go to.
   */
  inFlightOrigins(id: string): RequestOrigin[] {
    return this.connections.get(id)?.inFlightOrigins() ?? [];
  }

  /** The state of every configured server, in config order. */
  status(): ServerStatus[] {
    return [...this.connections.values()].map((connection) => connection.status());
  }

  private async applyConfig(input: SearchMcpConfigInput | ResolvedConfig): Promise<ServerConfigChanges> {
    this.assertOpen();
    const current = { config: this.currentConfig, connections: this.connections };
    return applyServerConfig(current, this.resolve(input), {
      wiring: this.wiring,
      logger: this.logger,
      start: () => this.started && !this.closed,
      onInstalled: ({ config, connections }, changes) => {
        this.connections = connections;
        this.currentConfig = config;
        for (const id of changes.removed) this.toolsChanged(id, []);
      },
    });
  }

  private toolsChanged(serverId: string, tools: readonly ToolInfo[]): void {
    // Tools that must run as tasks (`execution.taskSupport: "required"`), looked up on every call: a set per server.
    const required = tools.filter(tasks.requiresTask).map((tool) => tool.toolName);
    if (required.length > 0) this.taskTools.set(serverId, new Set(required));
    else this.taskTools.delete(serverId);
    this.revision += 1;
    this.emit('tools-changed', serverId, tools);
  }

  private resolve(config: SearchMcpConfigInput | ResolvedConfig): ResolvedConfig {
    return isResolvedConfig(config) ? config : parseConfig(config, this.options.env ? { env: this.options.env } : {});
  }

  private connection(id: string): ServerConnection {
    const connection = this.connections.get(id);
    if (!connection) {
      throw new ConfigError({ issues: [{ path: 'mcpServers', message: `no server with id '${id}' is configured` }] });
    }
    return connection;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('McpClientManager is closed');
  }
}
