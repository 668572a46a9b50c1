import { EventEmitter } from 'node:events';
import {
  ConfigError,
  formatConfigPath,
  isResolvedConfig,
  type Logger,
  parseConfig,
  type ResolvedConfig,
  type SearchMcpConfigInput,
  type ServerConfig,
  type ServerHealth,
  type ServerState,
  type ServerStatus,
  type ToolInfo,
  isPerUserServer,
} from '@search-mcp/shared';
import { applyServerConfig } from './apply-server-config.js';
import { CachedToolLists } from './cached-tool-lists.js';
import type { EmitManagerEvent } from './connection/notification-relays.js';
import type { ServerConnection } from './connection/server-connection.js';
import { type ManagerWiring, wireManager } from './manager-wiring.js';
import type {
  HealthCheckOptions,
  McpClientManagerEvents,
  McpClientManagerOptions,
} from './mcp-client-manager-options.js';
import type { ServerConfigChanges } from './server-config-changes.js';
import {
  type AuthorizationTargets,
  authorizeServer,
  beginServerAuthorization,
  completeServerAuthorization,
  logoutServer,
} from './server-authorizations.js';
import { PerUserConnections } from './per-user/per-user-connections.js';
import { perUserLimits } from './per-user/per-user-options.js';

/**
 * The configured servers as a whole: one `ServerConnection` each, their life cycle (start, stop, reload, close),
 * status, health and tool lists. `McpClientManager` (the facade) adds the forwarding of requests to them.
 */
export class ManagedServers extends EventEmitter<McpClientManagerEvents> {
  private currentConfig: ResolvedConfig;
  private connections = new Map<string, ServerConnection>();
  private readonly wiring: ManagerWiring;
  /** Each caller's own connection to the servers with `identity: "per-user"` (README, "Per-user servers"). */
  private readonly perUser: PerUserConnections;
  /** What the OAuth methods work on (`server-authorizations.ts`). */
  private readonly authorizationTargets: AuthorizationTargets;
  /** @internal For the subclass's own log lines. */
  protected readonly logger: Logger;
  private readonly options: McpClientManagerOptions;
  private revision = 0;
  /** The lists kept from earlier runs (`toolListCache`), searched while their servers start. */
  private readonly cachedLists: CachedToolLists | undefined;
  /** The servers whose kept list `listAllTools` offers now: a change of this set is a change of the tools. */
  private readonly showingCached = new Set<string>();
  private closed = false;
  /** True once `startAll` ran: a reload then starts the servers it adds. */
  private started = false;
  /** The reload in progress: reloads run one after the other. */
  private reconfiguring: Promise<unknown> = Promise.resolve();
  private readonly killOnExit = () => {
    for (const connection of this.connections.values()) connection.killNow();
    this.perUser.killNow();
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
    this.cachedLists = options.toolListCache ? new CachedToolLists(options.toolListCache) : undefined;
    this.currentConfig = this.resolve(config);
    this.wiring = wireManager(this.currentConfig, options, {
      emit: this.emit.bind(this) as EmitManagerEvent,
      onStatusChange: (status, previous) => {
        this.emit('status-change', status, previous);
        this.cachedShownChanged(status.id);
      },
      onToolsChanged: (serverId, tools) => this.sharedToolsChanged(serverId, tools),
    });
    this.logger = this.wiring.logger;
    this.perUser = new PerUserConnections({
      limits: perUserLimits(options.perUser),
      createConnection: (config, caller) => this.wiring.createConnection(config, caller),
      emit: this.emit.bind(this) as EmitManagerEvent,
      redirectUrl: () => options.oauth?.redirectUrl?.(),
      onToolsChanged: (serverId) => {
        // The callers' list stands for the server's only while its shared connection is not running.
        if (this.connections.get(serverId)?.currentState !== 'running') {
          this.toolsChanged(serverId, this.perUser.tools.all(serverId));
        }
      },
      logger: this.logger,
    });
    this.authorizationTargets = {
      connection: (id) => this.connection(id),
      connections: () => this.connections.values(),
      perUser: this.perUser,
      withPerUser: (status) => this.withPerUser(status),
    };
    for (const serverConfig of Object.values(this.currentConfig.mcpServers)) {
      this.connections.set(serverConfig.id, this.wiring.createConnection(serverConfig));
      // Told to nobody yet (and a subclass is not set up yet): the first listing sees it.
      this.cachedShownChanged(serverConfig.id, false);
    }
    // If the host exits without close() (an uncaught exception, process.exit), no server group may outlive it.
    process.once('exit', this.killOnExit);
  }

  /** The validated configuration (defaults filled, ids normalized, variables expanded); the latest after a reload. */
  get config(): ResolvedConfig {
    return this.currentConfig;
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
    this.perUser.resume();
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
    this.perUser.resume(id);
    await connection.start();
  }

  /**
   * Makes a server authorized with OAuth and connected (docs/oauth.md): it connects, and where the server asks for
   * an authorization (none stored, refused, or a wider scope pending) a person is sent through
   * `oauth.openAuthorizationUrl` and the loopback redirect. `force` asks for a new authorization even when the stored
   * one works. Resolves with the server's status once it is connected; rejects with why not (a
   * `BackendAuthorizationError` naming the step). What `search-mcp auth <server>` runs.
   */
  async authorize(id: string, options: { force?: boolean } = {}): Promise<ServerStatus> {
    this.assertOpen();
    return authorizeServer(this.authorizationTargets, id, options);
  }

  /**
   * The first half of an authorization whose redirect the host receives itself (`search-mcp-http`'s
   * `/oauth/callback`): the URL to send a person to (always a new authorization), or nothing when the server's grant
   * needs no person (client credentials and the other grants of docs/oauth.md: the token is already there).
   */
  async beginAuthorization(
    id: string,
    options: { redirectUrl: string; subject?: string },
  ): Promise<{ authorizationUrl?: string }> {
    this.assertOpen();
    return beginServerAuthorization(this.authorizationTargets, id, options);
  }

  /**
   * The second half: the redirect's query (`code`, `state`, `iss`, or `error`). The `state` says which server's
   * authorization it completes (a server's own, or one caller's of a per-user server); resolves with that connection's
   * status once it is connected.
   */
  async completeAuthorization(query: URLSearchParams): Promise<ServerStatus> {
    this.assertOpen();
    return completeServerAuthorization(this.authorizationTargets, query);
  }

  /**
   * Revokes (where offered) and forgets a server's OAuth tokens; it then waits in `needs-auth`. With `subject`, on a
   * per-user server: that caller's own tokens, and their connection is closed.
   */
  async logout(id: string, options: { subject?: string } = {}): Promise<ServerStatus> {
    this.assertOpen();
    return logoutServer(this.authorizationTargets, id, options);
  }

  /**
   * Disconnects one server and ends its process tree. It stays down until `start`/`restart`; so do the callers'
   * own connections of a per-user server (closed, and new calls refused meanwhile).
   */
  async stop(id: string): Promise<void> {
    const connection = this.connection(id);
    await Promise.all([connection.stop(), this.perUser.stopServer(id)]);
  }

  /** Reconnects one server; a per-user server's callers' connections close too and reopen at their next call. */
  async restart(id: string): Promise<void> {
    this.assertOpen();
    const connection = this.connection(id);
    this.perUser.resume(id);
    await Promise.all([connection.restart(), this.perUser.closeServer(id, 'was restarted')]);
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

  /**
   * Stops every server and ends every child process tree. The manager cannot be started again. By default a stdio
   * server gets its stdin closed and the shutdown grace to exit by itself before SIGTERM; `promptly` gives it 100 ms
   * instead: for a host that has what it needed (a one-shot command's answer) and would otherwise wait out a server's
   * own shutdown (server-everything takes ~350 ms to exit after its stdin ends). A server that exits on stdin EOF
   * within those 100 ms, as most do, still ends by itself.
   */
  async close(options: { promptly?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wiring.discardPrestarted();
    await Promise.allSettled([
      ...[...this.connections.values()].map((connection) => connection.stop(undefined, options)),
      this.perUser.close(),
    ]);
    process.removeListener('exit', this.killOnExit);
  }

  /**
   * @internal Runs `work` on a caller's own connection to a per-user server (started first); a caller who has to
   * authorize gets a `BackendAuthorizationError` with the URL (README, "Per-user servers").
   */
  protected runForCaller<T>(
    config: ServerConfig,
    subject: string,
    work: (connection: ServerConnection) => Promise<T>,
  ): Promise<T> {
    this.assertOpen();
    return this.perUser.run(config, subject, work);
  }

  /** @internal The connection of a configured server, if any (no error for an unknown id). */
  protected connectionOf(id: string): ServerConnection | undefined {
    return this.connections.get(id);
  }

  /** The state of one configured server now; undefined for an id that is not configured. */
  serverState(id: string): ServerState | undefined {
    return this.connections.get(id)?.currentState;
  }

  /**
   * Tools of every running server, in config order (permission-`false` tools left out); for a server still starting
   * (or not started yet) with a list kept from an earlier run (`toolListCache`), that list, its tools marked `cached`.
   */
  async listAllTools(): Promise<ToolInfo[]> {
    const all: ToolInfo[] = [];
    for (const connection of this.connections.values()) {
      await connection.settled();
      all.push(...(this.cachedToolsOf(connection) ?? this.toolsOf(connection)));
    }
    return all;
  }

  /**
   * The kept list of a server that is not up yet: `starting`, or never started by `startAll` (a one-shot `search`
   * answers from the kept lists alone). A server that failed, stopped or waits for a login shows none: its tools
   * cannot be called.
   */
  private cachedToolsOf(connection: ServerConnection): ToolInfo[] | undefined {
    const state = connection.currentState;
    if (state !== 'starting' && !(state === 'stopped' && !this.started)) return undefined;
    return this.cachedLists?.toolsOf(connection.config);
  }

  /** A server's state changed: when its kept list came into or out of `listAllTools`, its tools changed. */
  private cachedShownChanged(serverId: string, announce = true): void {
    const connection = this.connections.get(serverId);
    if (!this.cachedLists || !connection) return;
    const cached = this.cachedToolsOf(connection);
    if ((cached !== undefined) === this.showingCached.has(serverId)) return;
    if (cached) this.showingCached.add(serverId);
    else this.showingCached.delete(serverId);
    if (announce) this.toolsChanged(serverId, cached ?? this.toolsOf(connection));
  }

  /** Tools of one server; empty while it is not running. */
  async listTools(id: string): Promise<ToolInfo[]> {
    const connection = this.connection(id);
    await connection.settled();
    return this.toolsOf(connection);
  }

  /**
   * A server's tools: its connection's; for a per-user server whose shared connection is not running, those its
   * callers' connections listed (so search finds them before an admin authorizes it).
   */
  private toolsOf(connection: ServerConnection): ToolInfo[] {
    const { config } = connection;
    if (!isPerUserServer(config) || !config.enabled || connection.currentState === 'running') {
      return connection.listTools();
    }
    return this.perUser.tools.permitted(config);
  }

  /** Pings every running server; servers that are not running report `ok: false` with their state. */
  async healthCheck(options: HealthCheckOptions = {}): Promise<ServerHealth[]> {
    const timeoutMs = options.timeoutMs ?? 5000;
    return Promise.all([...this.connections.values()].map((connection) => connection.ping(timeoutMs)));
  }

  /** The state of every configured server, in config order. */
  status(): ServerStatus[] {
    return [...this.connections.values()].map((connection) => this.withSandbox(this.withPerUser(connection.status())));
  }

  /** A sandboxed server's status names its sandbox (docs/trust.md, "Sandboxed servers"). */
  private withSandbox(status: ServerStatus): ServerStatus {
    const config = this.currentConfig.mcpServers[status.id];
    return config?.transport === 'stdio' && config.sandbox ? { ...status, sandbox: config.sandbox.kind } : status;
  }

  /** A per-user server's status says how many callers have a connection of their own. */
  private withPerUser(status: ServerStatus): ServerStatus {
    if (!isPerUser(this.connections.get(status.id))) return status;
    return {
      ...status,
      perUser: { connections: this.perUser.count(status.id), maxConnections: this.perUser.maxConnections },
    };
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
        // Callers' connections of a removed or changed server go with it (a changed one's callers reconnect with the
        // new entry at their next call).
        for (const id of [...changes.removed, ...changes.changed]) {
          void this.perUser.closeServer(
            id,
            `was ${changes.removed.includes(id) ? 'removed' : 'changed'} by a config reload and stopped`,
          );
        }
      },
    });
  }

  /**
   * The shared connection's tools changed. A per-user server whose shared connection went (or never came) keeps the
   * tools its callers' connections listed.
   */
  private sharedToolsChanged(serverId: string, tools: readonly ToolInfo[]): void {
    const connection = this.connections.get(serverId);
    // A server's list is the one the next run shows while it starts. The first list can arrive while the connection
    // is still `starting` (it flips to `running` after): kept then too, or a short run would never keep one. A
    // stopped or failed connection's emptied list is not kept.
    const state = connection?.currentState;
    if (connection && (state === 'running' || state === 'starting'))
      this.cachedLists?.remember(connection.config, tools);
    const callers = this.perUser.tools.all(serverId);
    const perUser = isPerUser(this.connections.get(serverId));
    this.toolsChanged(serverId, tools.length === 0 && perUser && callers.length > 0 ? callers : tools);
  }

  private toolsChanged(serverId: string, tools: readonly ToolInfo[]): void {
    this.toolsUpdated(serverId, tools);
    this.revision += 1;
    this.emit('tools-changed', serverId, tools);
  }

  /** @internal A server's tool list changed (before `tools-changed` is emitted): for what a subclass keeps per tool. */
  protected toolsUpdated(_serverId: string, _tools: readonly ToolInfo[]): void {}

  private resolve(config: SearchMcpConfigInput | ResolvedConfig): ResolvedConfig {
    return isResolvedConfig(config) ? config : parseConfig(config, this.options.env ? { env: this.options.env } : {});
  }

  /** @internal The connection of a configured server; a `ConfigError` for an unknown id. */
  protected connection(id: string): ServerConnection {
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

function isPerUser(connection: ServerConnection | undefined): boolean {
  return connection !== undefined && isPerUserServer(connection.config);
}
