import { EventEmitter } from 'node:events';
import type { CallToolResult, Implementation } from '@modelcontextprotocol/sdk/types.js';
import {
  ConfigError,
  collectConfigSecrets,
  createJsonLineLogger,
  createSecretRedactor,
  formatConfigPath,
  formatToolKey,
  isResolvedConfig,
  type Logger,
  parseConfig,
  type ResolvedConfig,
  type SearchMcpConfigInput,
  type SecretRedactor,
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
import { createConnectionFactory } from './connection/open-connection.js';
import { defaultRestartPolicy } from './connection/restart-policy.js';
import { ServerConnection } from './connection/server-connection.js';
import { createRedactingLogger } from './logging/redacting-logger.js';
import type {
  HealthCheckOptions,
  McpClientManagerEvents,
  McpClientManagerOptions,
} from './mcp-client-manager-options.js';
import { packageVersion } from './package-version.js';
import { type ProcessWatchdog, processWatchdog } from './process/process-watchdog.js';
import { defaultWatchdogScript } from './process/watchdog-script.js';

const packageInfo: Implementation = { name: 'search-mcp', version: packageVersion };

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
  /** The validated configuration (defaults filled, ids normalized, variables expanded). */
  readonly config: ResolvedConfig;
  private readonly connections = new Map<string, ServerConnection>();
  private readonly logger: Logger;
  private readonly redactor: SecretRedactor;
  private revision = 0;
  private closed = false;
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
    this.config = isResolvedConfig(config) ? config : parseConfig(config, options.env ? { env: options.env } : {});
    this.redactor = options.redactor ?? createSecretRedactor(collectConfigSecrets(this.config));
    this.logger = createRedactingLogger(
      options.logger ?? createJsonLineLogger({ level: 'warn', write: (line) => process.stderr.write(line) }),
      this.redactor,
    );
    const openConnection = createConnectionFactory({
      stderrTailLines: options.stderrTailLines ?? 20,
      shutdownGraceMs: options.shutdownGraceMs ?? 2000,
      watchdog: this.watchdog(options.watchdogScript),
      maxMessageSize: options.maxMessageSize ?? 64 * 1024 * 1024,
      redactor: this.redactor,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const restartPolicy = { ...defaultRestartPolicy, ...options.restartPolicy };
    for (const serverConfig of Object.values(this.config.mcpServers)) {
      const connection = new ServerConnection({
        config: serverConfig,
        logger: this.logger,
        clientInfo: options.clientInfo ?? packageInfo,
        restartPolicy,
        openConnection,
        redactor: this.redactor,
        ...(options.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: options.maxTotalTimeoutMs } : {}),
        onStatusChange: (status, previous) => this.emit('status-change', status, previous),
        onToolsChanged: (serverId, tools) => {
          this.revision += 1;
          this.emit('tools-changed', serverId, tools);
        },
      });
      this.connections.set(serverConfig.id, connection);
    }
    // If the host exits without close() (an uncaught exception, process.exit), no server group may outlive it.
    process.once('exit', this.killOnExit);
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
   * signal's reason.
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
    return connection.callTool(toolName, args, options);
  }

  /** Pings every running server; servers that are not running report `ok: false` with their state. */
  async healthCheck(options: HealthCheckOptions = {}): Promise<ServerHealth[]> {
    const timeoutMs = options.timeoutMs ?? 5000;
    return Promise.all([...this.connections.values()].map((connection) => connection.ping(timeoutMs)));
  }

  /** The state of every configured server, in config order. */
  status(): ServerStatus[] {
    return [...this.connections.values()].map((connection) => connection.status());
  }

  /** The process watchdog of this host, or undefined without one (see the `watchdogScript` option). */
  private watchdog(option: string | false | undefined): ProcessWatchdog | undefined {
    if (option === false) return undefined;
    const script = option ?? defaultWatchdogScript();
    if (script !== undefined) return processWatchdog(script);
    if (Object.values(this.config.mcpServers).some((server) => server.transport === 'stdio')) {
      this.logger.warn(
        'watchdog.cjs is missing beside @search-mcp/client-manager (bundled?): stdio servers will outlive this process if it is killed with SIGKILL',
      );
    }
    return undefined;
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
