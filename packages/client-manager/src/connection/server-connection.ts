import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  type Implementation,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  errorMessage,
  type Logger,
  type SecretRedactor,
  type ServerConfig,
  type ServerHealth,
  ServerNotRunningError,
  type ServerState,
  type ServerStatus,
  type ServerTransportKind,
  type ToolInfo,
} from '@search-mcp/shared';
import type { ProcessTransport } from '../process/process-transport.js';
import { closeConnection } from './close-connection.js';
import type { ConnectionFactory } from './connection-factory.js';
import { configErrorFailure, connectionLostMessage, describeExit, gaveUpMessage } from './failure-messages.js';
import { type CallToolOptions, forwardToolCall, resolveMaxTotalTimeoutMs } from './forward-tool-call.js';
import type { RestartPolicy } from './restart-policy.js';
import { RestartScheduler } from './restart-scheduler.js';
import { pingServer } from './ping-server.js';
import { ToolListRefresh } from './tool-list-refresh.js';
import { listAllToolPages } from './tool-paging.js';
import { type ConnectedServer, connectAndListTools } from './connection-attempt.js';

export interface ServerConnectionSettings {
  config: ServerConfig;
  /** The manager's logger (secrets already masked); the connection adds its server id. */
  logger: Logger;
  clientInfo: Implementation;
  restartPolicy: RestartPolicy;
  /** Opens one connection (spawn + initialize, or a remote connect). */
  openConnection: ConnectionFactory;
  /** Masks secrets in `lastError` and in every error this connection throws. */
  redactor: SecretRedactor;
  /** The manager's default overall limit of a call; see `CallToolOptions.maxTotalTimeoutMs`. */
  maxTotalTimeoutMs?: number;
  onStatusChange: (status: ServerStatus, previous: ServerState) => void;
  onToolsChanged: (serverId: string, tools: readonly ToolInfo[]) => void;
}

type ConnectReason = 'start' | 'restart' | 'reconnect';

/**
 * The life of one backend server, as a state machine (`ServerState`): connects it, keeps its tool list, forwards
 * calls, restarts it after a crash. Every connection attempt gets a generation number, so callbacks of an old
 * connection never touch a new one. How a connection is opened is injected (`ConnectionFactory`).
 */
export class ServerConnection {
  readonly id: string;
  private readonly settings: ServerConnectionSettings;
  private readonly logger: Logger;
  private readonly restartScheduler: RestartScheduler;
  /** Why the config entry is unusable (an unset variable…): such a server is never started. */
  private readonly configError: string | undefined;

  private state: ServerState;
  private client?: Client;
  private process?: ProcessTransport;
  private transportKind?: ServerTransportKind;
  private tools: ToolInfo[] = [];
  private generation = 0;
  private connecting?: Promise<void>;
  /** Restarts since the last start on purpose; reported in status. */
  private restarts = 0;
  /** True once stopped on purpose; calls then do not bring the server back. */
  private stoppedOnPurpose = false;
  private lastError?: string;
  private connectedAt?: Date;
  private connectMs?: number;
  private lastConnectAttemptAt = 0;
  private readonly toolListRefresh = new ToolListRefresh();

  constructor(settings: ServerConnectionSettings) {
    this.settings = settings;
    this.id = settings.config.id;
    this.logger = settings.logger.child({ server: this.id });
    this.restartScheduler = new RestartScheduler(settings.restartPolicy);
    const { configError } = settings.config;
    this.configError = configError !== undefined ? settings.redactor.redact(configError) : undefined;
    this.state = !settings.config.enabled ? 'disabled' : this.configError !== undefined ? 'failed' : 'stopped';
    if (this.configError !== undefined) this.lastError = this.configError;
  }

  get config(): ServerConfig {
    return this.settings.config;
  }

  get currentState(): ServerState {
    return this.state;
  }

  status(): ServerStatus {
    const status: ServerStatus = {
      id: this.id,
      state: this.state,
      toolCount: this.listTools().length,
      restarts: this.restarts,
    };
    if (this.transportKind) status.transport = this.transportKind;
    const pid = this.process?.pid;
    if (pid !== undefined && (this.state === 'running' || this.state === 'starting')) status.pid = pid;
    if (this.connectedAt && this.state === 'running') status.connectedAt = this.connectedAt.toISOString();
    if (this.connectMs !== undefined) status.connectMs = this.connectMs;
    if (this.lastError !== undefined) status.lastError = this.lastError;
    const serverInfo = this.state === 'running' ? this.client?.getServerVersion() : undefined;
    if (serverInfo)
      status.serverInfo = this.settings.redactor.redactDeep({ name: serverInfo.name, version: serverInfo.version });
    return status;
  }

  /** The tools of the current connection (empty unless running), without those whose permission is `false`. */
  listTools(): ToolInfo[] {
    if (this.state !== 'running') return [];
    const permissions = this.config.toolPermissions;
    return this.tools.filter((tool) => !Object.hasOwn(permissions, tool.toolName) || permissions[tool.toolName]);
  }

  /** Waits for a tool list refresh in flight (after `tools/list_changed`), so callers see the new list. */
  async settled(): Promise<void> {
    await this.toolListRefresh.settled();
  }

  /** Starts on purpose: resets the restart counters. Resolves when running; rejects with why it failed. */
  async start(): Promise<void> {
    if (this.state === 'disabled') return;
    if (this.configError !== undefined) throw configErrorFailure(this.id, this.configError);
    this.stoppedOnPurpose = false;
    if (this.state === 'running') return;
    if (this.connecting) return this.connecting;
    this.restartScheduler.reset();
    this.restarts = 0;
    return this.connect('start');
  }

  async stop(): Promise<void> {
    this.stoppedOnPurpose = true;
    this.restartScheduler.cancel();
    this.generation += 1;
    this.connecting = undefined;
    const hadTools = this.tools.length > 0;
    const wasStarting = this.state === 'starting';
    const { client, process: serverProcess } = this;
    this.client = undefined;
    this.process = undefined;
    this.tools = [];
    if (this.state !== 'disabled' && this.configError === undefined) this.setState('stopped');
    if (hadTools) this.settings.onToolsChanged(this.id, []);
    // A server still starting has nothing to finish: end it now instead of waiting for it to notice stdin closing.
    if (wasStarting && serverProcess) await serverProcess.close({ immediate: true });
    await closeConnection(client, serverProcess);
  }

  /** Synchronous last resort when the host exits without `stop()`: kills a stdio server's process group. */
  killNow(): void {
    this.restartScheduler.cancel();
    this.process?.killNow();
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    if (this.configError !== undefined) throw configErrorFailure(this.id, this.configError);
    const client = this.client;
    if (this.state !== 'running' || !client) {
      this.reconnectSoon();
      throw new ServerNotRunningError({ serverId: this.id, state: this.state });
    }
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    try {
      return await forwardToolCall(client, {
        serverId: this.id,
        toolName,
        args,
        options,
        timeoutMs,
        maxTotalTimeoutMs: resolveMaxTotalTimeoutMs(options, this.config, this.settings.maxTotalTimeoutMs, timeoutMs),
        remote: this.config.transport !== 'stdio',
        onConnectionFailure: (error) => this.connectionLost(`call failed: ${errorMessage(error)}`),
        connectionDetail: () => describeExit(this.process?.exit),
      });
    } catch (error) {
      // A backend may echo a secret in its error; the error's fields, message and cause are masked alike.
      throw this.settings.redactor.redactDeep(error);
    }
  }

  async ping(timeoutMs: number): Promise<ServerHealth> {
    const client = this.client;
    if (this.state !== 'running' || !client) {
      return { id: this.id, ok: false, error: `not running (${this.state})` };
    }
    const health = await pingServer(client, this.id, timeoutMs);
    return health.error === undefined ? health : { ...health, error: this.settings.redactor.redact(health.error) };
  }

  /** Brings a crashed or failed server back now (a call found it down). Never throws. */
  private reconnectSoon(): void {
    if (this.state === 'disabled' || this.configError !== undefined || this.stoppedOnPurpose || this.connecting) return;
    if (this.state !== 'failed' && this.state !== 'crashed' && this.state !== 'stopped') return;
    // A burst of calls to a server that keeps failing must not become a burst of spawns.
    const throttleMs = Math.min(1000, this.settings.restartPolicy.initialDelayMs);
    if (this.state === 'failed' && Date.now() - this.lastConnectAttemptAt < throttleMs) return;
    this.restartScheduler.cancel();
    // A crashed server skips the rest of its backoff wait but stays in the backoff chain if it fails again.
    const reason = this.state === 'crashed' ? 'restart' : 'reconnect';
    if (reason === 'restart') this.restarts += 1;
    this.connect(reason).catch(() => {
      // connect() recorded the failure in status.
    });
  }

  private connect(reason: ConnectReason): Promise<void> {
    const generation = ++this.generation;
    const attempt = this.openAndList(generation, reason).finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
  }

  private async openAndList(generation: number, reason: ConnectReason): Promise<void> {
    this.lastConnectAttemptAt = Date.now();
    this.setState('starting');
    this.logger.info('connecting', { reason, transport: this.config.transport });
    let connected: ConnectedServer;
    try {
      connected = await connectAndListTools({
        config: this.config,
        openConnection: this.settings.openConnection,
        logger: this.logger,
        createClient: () => this.createClient(generation),
        onProcess: (spawned) => {
          if (generation !== this.generation) return;
          this.process = spawned;
          spawned.onexit = (exit) => this.logger.info('server process ended', { how: describeExit(exit) });
        },
      });
    } catch (error) {
      if (generation !== this.generation) return;
      this.process = undefined;
      const failure = this.settings.redactor.redactDeep(error as Error);
      this.lastError = failure.message;
      this.logger.warn('could not connect', { error: failure.message });
      if (reason === 'restart' && !this.stoppedOnPurpose) this.scheduleRestart();
      else this.setState('failed');
      throw failure;
    }
    if (generation !== this.generation) {
      await closeConnection(connected.client, connected.process);
      return;
    }
    this.client = connected.client;
    this.process = connected.process;
    this.transportKind = connected.kind;
    this.tools = connected.tools;
    this.connectedAt = new Date();
    this.connectMs = connected.connectMs;
    this.lastError = undefined;
    this.setState('running');
    this.logger.info('connected', { tools: connected.tools.length, connectMs: connected.connectMs });
    this.settings.onToolsChanged(this.id, connected.tools);
  }

  private createClient(generation: number): Client {
    const client = new Client(this.settings.clientInfo, { capabilities: {} });
    client.onerror = (error) => this.logger.debug('transport error', { error: error.message });
    client.onclose = () => this.handleClose(generation);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.refreshTools(generation);
    });
    return client;
  }

  private refreshTools(generation: number): void {
    this.toolListRefresh.request(async () => {
      const client = this.client;
      if (!client || generation !== this.generation || this.state !== 'running') return;
      try {
        const tools = await listAllToolPages(client, {
          config: this.config,
          logger: this.logger,
          timeoutMs: this.config.timeoutMs,
        });
        if (generation !== this.generation || this.state !== 'running') return;
        this.tools = tools;
        this.logger.info('tool list changed', { tools: tools.length });
        this.settings.onToolsChanged(this.id, tools);
      } catch (error) {
        this.logger.warn('could not refresh the tool list', { error: errorMessage(error) });
      }
    });
  }

  private handleClose(generation: number): void {
    if (generation !== this.generation) return;
    this.connectionLost(connectionLostMessage(this.process));
  }

  private connectionLost(reason: string): void {
    if (this.state !== 'running') return;
    this.lastError = this.settings.redactor.redact(reason);
    this.logger.warn('server connection lost', { reason });
    const { client } = this;
    this.client = undefined;
    this.tools = [];
    this.settings.onToolsChanged(this.id, []);
    this.scheduleRestart();
    // A remote transport may still hold a session or stream open; a stdio one has already ended.
    if (this.transportKind !== 'stdio') void client?.close().catch(() => {});
  }

  private scheduleRestart(): void {
    const planned = this.restartScheduler.schedule(this.connectedAt, () => {
      if (this.stoppedOnPurpose || this.state !== 'crashed') return;
      this.restarts += 1;
      this.connect('restart').catch(() => {
        // Recorded in status; scheduleRestart ran again from openAndList.
      });
    });
    this.connectedAt = undefined;
    if (!planned) {
      this.lastError = gaveUpMessage(this.lastError, this.settings.restartPolicy.maxAttempts);
      this.setState('failed');
      return;
    }
    this.setState('crashed');
    this.logger.info('restarting after backoff', { delayMs: planned.delayMs, attempt: planned.attempt });
  }

  private setState(state: ServerState): void {
    const previous = this.state;
    if (previous === state) return;
    this.state = state;
    this.settings.onStatusChange(this.status(), previous);
  }
}
