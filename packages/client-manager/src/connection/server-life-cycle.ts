import {
  authorizeCommand,
  BackendAuthorizationError,
  type Logger,
  type McpFetchLike,
  type ServerConfig,
  ServerNotRunningError,
  type ServerState,
  type ServerStatus,
  type ServerTransportKind,
  type ToolInfo,
  type McpServerCapabilities,
} from '@search-mcp/shared';
import type { ProcessTransport } from '../process/process-transport.js';
import { BackendSessionState } from '../features/backend-session-state.js';
import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import type { BackendRequestOptions } from './backend-request-options.js';
import { closeConnection } from './close-connection.js';
import { describeStatus } from './connection-status.js';
import { EraVerdict } from './era/era-verdict.js';
import { ListenWiring } from './modern/listen-wiring.js';
import { eraStrategy } from './era/era-strategies.js';
import {
  configErrorFailure,
  connectionLostMessage,
  describeExit,
  gaveUpMessage,
  needsAuthorizationFailure,
} from './failure-messages.js';
import { OriginTracker } from './origin-tracker.js';
import type { InFlightRequests } from './in-flight-requests.js';
import type { ForwardExtra } from './request-forwarder.js';
import { RestartScheduler } from './restart-scheduler.js';
import { ServerToolList } from './server-tool-list.js';
import { type ConnectedServer, connectAndListTools } from './connection-attempt.js';
import type { ServerConnectionSettings } from './server-connection-settings.js';
import type { ServerAuthorization } from '../oauth/server-authorization.js';

type ConnectReason = 'start' | 'restart' | 'reconnect';

/**
 * The life of one backend server, as a state machine (`ServerState`): connects it, keeps its tool list, restarts it
 * after a crash. Every connection attempt gets a generation number, so callbacks of an old connection never touch a
 * new one. How a connection is opened is injected (`ConnectionFactory`). Requests over the running connection are
 * `ServerConnection`'s (the subclass).
 */
export abstract class ServerLifeCycle {
  readonly id: string;
  protected readonly settings: ServerConnectionSettings;
  private readonly logger: Logger;
  private readonly restartScheduler: RestartScheduler;
  /** Why the config entry is unusable (an unset variable…): such a server is never started. */
  private readonly configError: string | undefined;

  protected state: ServerState;
  protected client?: BackendPeer;
  /** The protocol era to connect in (configured, or learnt by the last connect). */
  private readonly era: EraVerdict;
  protected process?: ProcessTransport;
  private transportKind?: ServerTransportKind;
  private readonly tools: ServerToolList;
  protected generation = 0;
  private connecting?: Promise<void>;
  /** True once stopped on purpose; calls then do not bring the server back. */
  private stoppedOnPurpose = false;
  private lastError?: string;
  private connectedAt?: Date;
  private connectMs?: number;
  /** Streamable HTTP (or auto) servers: exact attribution of reverse requests to our requests' origins. */
  protected readonly originTracker: OriginTracker | undefined;
  /** Subscriptions and logging level the client side asked for: sent again after each reconnect. */
  readonly sessionState = new BackendSessionState();
  /** Why the server was stopped on purpose (`removed by a config reload`): calls it broke say so. */
  protected stopReason?: string;
  /** A running 2026-07-28 connection's `subscriptions/listen` stream (list changes, resource updates). */
  protected readonly listening: ListenWiring;

  constructor(settings: ServerConnectionSettings) {
    this.settings = settings;
    this.id = settings.config.id;
    this.logger = settings.logger.child({ server: this.id });
    this.restartScheduler = new RestartScheduler(settings.restartPolicy);
    const { configError } = settings.config;
    this.configError = configError !== undefined ? settings.redactor.redact(configError) : undefined;
    this.state = !settings.config.enabled ? 'disabled' : this.configError !== undefined ? 'failed' : 'stopped';
    if (this.configError !== undefined) this.lastError = this.configError;
    this.originTracker = settings.config.transport === 'stdio' ? undefined : new OriginTracker();
    this.era = new EraVerdict(settings.config.protocol, settings.errors);
    this.tools = new ServerToolList({
      serverId: this.id,
      logger: this.logger,
      config: () => this.config,
      onToolsChanged: settings.onToolsChanged,
      errors: settings.errors,
    });
    this.listening = new ListenWiring({
      serverId: this.id,
      logger: this.logger,
      redactor: settings.redactor,
      subscribedUris: () => this.sessionState.subscribedUris,
      timeoutMs: () => this.config.timeoutMs,
    });
  }

  /** This server's requests in flight (reverse requests are attributed through it). */
  protected abstract get inFlight(): InFlightRequests;

  /** Forwards a request over the running connection (the session state is restored with it after a reconnect). */
  abstract forward(
    method: string,
    params: Record<string, unknown>,
    options?: BackendRequestOptions,
    extra?: ForwardExtra,
  ): Promise<Record<string, unknown>>;

  get config(): ServerConfig {
    return this.settings.config;
  }

  /** OAuth to this server, when it is a remote server OAuth applies to. */
  get authorization(): ServerAuthorization | undefined {
    return this.settings.authorization;
  }

  get currentState(): ServerState {
    return this.state;
  }

  status(): ServerStatus {
    return describeStatus({
      id: this.id,
      state: this.state,
      toolCount: this.listTools().length,
      restarts: this.restartScheduler.restarts,
      transport: this.transportKind,
      pid: this.process?.pid,
      connectedAt: this.connectedAt,
      connectMs: this.connectMs,
      lastError: this.lastError,
      client: this.state === 'running' ? this.client : undefined,
      redactor: this.settings.redactor,
      oauth: this.settings.authorization?.status(),
    });
  }

  /**
   * OAuth tokens were obtained (a login, a host's callback, a refresh in another request): a server that waited for
   * them connects now. Never throws.
   */
  authorized(): void {
    if (this.stoppedOnPurpose || this.connecting || this.state === 'running' || this.state === 'disabled') return;
    if (this.configError !== undefined) return;
    this.connect('reconnect').catch(() => {
      // connect() recorded the failure in status.
    });
  }

  /**
   * An authorization the server was waiting for ended without tokens (the person never came back, a step failed): a
   * server still waiting says why now instead of "waiting for OAuth authorization". Never throws.
   */
  authorizationEnded(error: unknown): void {
    if (this.state !== 'needs-auth' || this.connecting) return;
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = this.settings.redactor.redact(message);
    this.settings.onStatusChange(this.status(), this.state);
  }

  /** Ends the connection and connects again in the background (after a logout: it then waits for authorization). */
  async reconnectNow(): Promise<void> {
    await this.stop();
    this.stoppedOnPurpose = false;
    this.connect('start').catch(() => {
      // connect() recorded the failure in status.
    });
  }

  /** Resolves when the connect in progress (if any) ends, whatever its outcome. */
  async connectSettled(): Promise<void> {
    await this.connecting?.catch(() => {});
  }

  /** The tools of the current connection (empty unless running), without those whose permission is `false`. */
  listTools(): ToolInfo[] {
    return this.state === 'running' ? this.tools.permitted() : [];
  }

  /** Waits for a tool list refresh in flight (after `tools/list_changed`), so callers see the new list. */
  async settled(): Promise<void> {
    await this.tools.settled();
  }

  /** Starts on purpose: resets the restart counters. Resolves when running; rejects with why it failed. */
  async start(): Promise<void> {
    if (this.state === 'disabled') return;
    if (this.configError !== undefined) throw configErrorFailure(this.id, this.configError);
    this.stoppedOnPurpose = false;
    if (this.state === 'running') return;
    if (this.connecting) return this.connecting;
    this.restartScheduler.reset();
    return this.connect('start');
  }

  /**
   * @param reason why, for calls this stop breaks (`was removed by a config reload`).
   * @param options.promptly end a stdio server's process group promptly (stdin closed, SIGTERM after 100 ms rather
   * than the shutdown grace; `McpClientManager.close`).
   */
  async stop(reason?: string, options: { promptly?: boolean } = {}): Promise<void> {
    this.stoppedOnPurpose = true;
    this.stopReason = reason;
    this.restartScheduler.cancel();
    this.generation += 1;
    this.connecting = undefined;
    const hadTools = this.tools.all.length > 0;
    const wasStarting = this.state === 'starting';
    const { client, process: serverProcess } = this;
    const capabilities = this.capabilities();
    this.client = undefined;
    this.process = undefined;
    this.tools.replace([]);
    const listenStream = this.listening.detach();
    if (this.state !== 'disabled' && this.configError === undefined) this.setState('stopped');
    if (hadTools) this.settings.onToolsChanged(this.id, []);
    this.announceFeatures(capabilities);
    // A server still starting has nothing to finish: end it now instead of waiting for it to notice stdin closing.
    if (wasStarting && serverProcess) await serverProcess.close({ immediate: true });
    else if (options.promptly && serverProcess) await serverProcess.close({ promptly: true });
    await listenStream?.close();
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

  /** What the backend announced in `initialize`; undefined unless running. */
  capabilities(): McpServerCapabilities | undefined {
    return this.state === 'running' ? this.client?.getServerCapabilities() : undefined;
  }

  protected runningClient(): BackendPeer {
    if (this.configError !== undefined) throw configErrorFailure(this.id, this.configError);
    const client = this.client;
    if (this.state !== 'running' || !client) {
      // The state the caller met: the reconnect that follows makes it `starting` at once.
      const state = this.state;
      this.reconnectSoon();
      // Calling again does not help until someone authorizes: say who can (the message names the command).
      if (state === 'needs-auth') throw needsAuthorizationFailure(this.id, this.lastError);
      throw new ServerNotRunningError({ serverId: this.id, state: this.state });
    }
    return client;
  }

  /** Brings a crashed or failed server back now (a call found it down). Never throws. */
  private reconnectSoon(): void {
    if (this.state === 'disabled' || this.configError !== undefined || this.stoppedOnPurpose || this.connecting) return;
    if (this.state === 'needs-auth') {
      // Tokens may have come since (`search-mcp auth` in another process): one try per throttle window.
      if (this.restartScheduler.reconnectNow('failed')) this.connect('reconnect').catch(() => {});
      return;
    }
    const reason = this.restartScheduler.reconnectNow(this.state);
    if (!reason) return;
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
    this.restartScheduler.attempting();
    this.setState('starting');
    this.logger.info('connecting', { reason, transport: this.config.transport });
    let connected: ConnectedServer;
    const { authorization } = this.settings;
    try {
      connected = await connectAndListTools({
        config: this.config,
        openConnection: this.settings.openConnection,
        logger: this.logger,
        createClient: (era) => this.createClient(generation, era),
        era: this.era.current,
        clientInfo: this.settings.clientInfo,
        errors: this.settings.errors,
        onProbed: (era) => {
          if (generation === this.generation) this.era.learn(era);
        },
        ...(this.originTracker ? { originTracker: this.originTracker } : {}),
        ...(authorization ? { wrapFetch: (next: McpFetchLike) => authorization.wrap(next) } : {}),
        onProcess: (spawned) => {
          if (generation !== this.generation) return;
          this.process = spawned;
          spawned.onexit = (exit) => this.logger.info('server process ended', { how: describeExit(exit) });
        },
      });
    } catch (error) {
      if (generation !== this.generation) return;
      this.process = undefined;
      this.era.failed(error);
      const failure = this.settings.redactor.redactDeep(error as Error);
      // An authorization still under way (the connect ran out of time meanwhile) connects the server when it ends.
      const authorizing = authorization?.authorizing() ?? false;
      this.lastError = authorizing
        ? `waiting for OAuth authorization${authorization?.waitingForPerson() ? ' in the browser' : ''} (or run \`${authorizeCommand(this.id)}\`)`
        : failure.message;
      this.logger.warn('could not connect', { error: failure.message });
      // Waiting for a person, not for time: no restart timer (authorizing connects it; see `authorized()`).
      if ((BackendAuthorizationError.isInstance(error) && error.needsUser) || authorizing) this.setState('needs-auth');
      else if (reason === 'restart' && !this.stoppedOnPurpose) this.scheduleRestart();
      else this.setState('failed');
      throw failure;
    }
    if (generation !== this.generation) {
      await closeConnection(connected.client, connected.process);
      return;
    }
    this.client = connected.client;
    this.era.learn(connected.era);
    this.process = connected.process;
    this.transportKind = connected.kind;
    this.tools.replace(connected.tools);
    this.connectedAt = new Date();
    this.connectMs = connected.connectMs;
    this.lastError = undefined;
    this.stopReason = undefined;
    this.setState('running');
    this.logger.info('connected', { tools: connected.tools.length, connectMs: connected.connectMs });
    this.settings.onToolsChanged(this.id, connected.tools);
    this.announceFeatures(this.capabilities());
    if (connected.client.protocolEra === 'modern') this.listening.open(connected.client);
    void this.restoreSession(generation);
  }

  private async restoreSession(generation: number): Promise<void> {
    const send = (method: string, params: Record<string, unknown>) =>
      generation === this.generation ? this.forward(method, params) : Promise.resolve();
    await this.sessionState.restore(send, this.logger, this.capabilities());
  }

  /** Resources and prompts came or went with the connection: listeners re-list them. */
  private announceFeatures(capabilities: McpServerCapabilities | undefined): void {
    if (capabilities?.resources) this.settings.emit('resources-changed', this.id);
    if (capabilities?.prompts) this.settings.emit('prompts-changed', this.id);
  }

  private createClient(generation: number, era: ProtocolEra): BackendPeer {
    return eraStrategy(era).createPeer(
      {
        serverId: this.id,
        clientInfo: this.settings.clientInfo,
        logger: this.logger,
        router: this.settings.reverseRequests,
        inFlight: this.inFlight,
        ...(this.originTracker ? { originTracker: this.originTracker } : {}),
        emit: this.settings.emit,
        logRateLimit: this.settings.logRateLimit,
        logLevel: this.sessionState.level,
      },
      { onClose: () => this.handleClose(generation), onToolListChanged: () => this.refreshTools(generation) },
    );
  }

  /** The backend said its tool list changed: listed again while this connection is the running one. */
  private refreshTools(generation: number): void {
    this.tools.relist(() => (generation === this.generation && this.state === 'running' ? this.client : undefined));
  }

  private handleClose(generation: number): void {
    if (generation !== this.generation) return;
    this.connectionLost(connectionLostMessage(this.process));
  }

  protected connectionLost(reason: string): void {
    if (this.state !== 'running') return;
    this.lastError = this.settings.redactor.redact(reason);
    this.logger.warn('server connection lost', { reason });
    this.leaveRunning(() => this.scheduleRestart());
  }

  /**
   * The running connection is of no more use: its tools go, listeners hear it, then `nextState` moves the machine on
   * (a restart planned, or `needs-auth`). A remote transport may still hold a session or stream open: it is closed; a
   * stdio one has already ended.
   */
  private leaveRunning(nextState: () => void): void {
    const { client } = this;
    const capabilities = this.capabilities();
    this.client = undefined;
    this.tools.replace([]);
    void this.listening.detach()?.close();
    this.settings.onToolsChanged(this.id, []);
    nextState();
    this.announceFeatures(capabilities);
    if (this.transportKind !== 'stdio') void client?.close().catch(() => {});
  }

  /**
   * A request on the running connection met a 401 that neither the stored tokens nor a refresh could answer (revoked,
   * expired for good) and nobody could be asked: the connection is of no use until someone authorizes, so the server
   * waits in `needs-auth` (no restart timer) and the caller gets `ServerNotRunningError` naming the command. A failure
   * that leaves the tokens usable (a step-up nobody could be asked for) fails that request only.
   */
  protected authorizationFailed(failure: BackendAuthorizationError): Error {
    if (this.settings.authorization?.status()?.state === 'authorized') return failure;
    const message = this.settings.redactor.redact(failure.message);
    if (this.state === 'running') {
      this.lastError = message;
      this.logger.warn('OAuth authorization lost', { error: message });
      this.connectedAt = undefined;
      this.leaveRunning(() => this.setState('needs-auth'));
    }
    return new ServerNotRunningError({
      serverId: this.id,
      state: 'needs-auth',
      isRetryable: false,
      message,
      cause: failure,
    });
  }

  private scheduleRestart(): void {
    const planned = this.restartScheduler.schedule(
      this.connectedAt,
      () => !this.stoppedOnPurpose && this.state === 'crashed',
      () => {
        this.connect('restart').catch(() => {
          // Recorded in status; scheduleRestart ran again from openAndList.
        });
      },
    );
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
