import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Implementation,
} from '@modelcontextprotocol/sdk/types.js';
import {
  ServerNotRunningError,
  TimeoutError,
  type Logger,
  type ServerConfig,
  type ServerHealth,
  type ServerState,
  type ServerStatus,
  type ServerTransportKind,
  type ToolCallOptions,
  type ToolDefinition,
  type ToolInfo,
} from '@search-mcp/shared';
import { z } from 'zod';
import { toBackendFailure } from './backend-error-mapping.js';
import { dropDuplicateTools, parseToolPage, toToolInfo } from './lenient-tool-list.js';
import { connectRemote } from './remote-connection.js';
import { ProgressOrderingTransport } from './progress-ordering-transport.js';
import { restartDelayMs, type RestartPolicy } from './restart-policy.js';
import { StdioProcessTransport } from './stdio-process-transport.js';

/** Options of one forwarded call (the shared `ToolCallOptions`). */
export type CallToolOptions = ToolCallOptions;

export interface ServerConnectionSettings {
  config: ServerConfig;
  logger: Logger;
  clientInfo: Implementation;
  restartPolicy: RestartPolicy;
  stderrTailLines: number;
  shutdownGraceMs: number;
  fetch?: FetchLike;
  onStatusChange: (status: ServerStatus, previous: ServerState) => void;
  onToolsChanged: (serverId: string, tools: readonly ToolInfo[]) => void;
}

// Results pass through as the backend sent them: the SDK's CallToolResultSchema strips unknown fields, and
// `callTool()` rejects error results that carry `structuredContent`.
const PassThroughResultSchema = z.looseObject({});
const ToolsPageSchema = z.looseObject({ tools: z.unknown().optional(), nextCursor: z.string().optional() });

const maxToolPages = 100;

/**
 * One backend server: connects it, keeps its tool list, forwards calls, restarts it after a crash.
 * Every connection attempt gets a generation number, so callbacks of an old connection never touch a new one.
 */
export class ServerConnection {
  readonly id: string;
  private readonly settings: ServerConnectionSettings;
  private readonly logger: Logger;

  private state: ServerState;
  private client?: Client;
  private transport?: Transport;
  private transportKind?: ServerTransportKind;
  private tools: ToolInfo[] = [];
  private generation = 0;
  private connecting?: Promise<void>;
  private restartTimer?: NodeJS.Timeout;
  /** Restarts in a row since the last stable run; drives the backoff. */
  private consecutiveRestarts = 0;
  /** Restarts since the last start on purpose; reported in status. */
  private restarts = 0;
  /** True once stopped on purpose; calls then do not bring the server back. */
  private stoppedOnPurpose = false;
  private lastError?: string;
  private connectedAt?: Date;
  private connectMs?: number;
  private lastConnectAttemptAt = 0;
  private refreshing?: Promise<void>;
  private refreshAgain = false;

  constructor(settings: ServerConnectionSettings) {
    this.settings = settings;
    this.id = settings.config.id;
    this.logger = settings.logger.child({ server: this.id });
    this.state = settings.config.enabled ? 'stopped' : 'disabled';
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
    const pid = this.transport instanceof StdioProcessTransport ? this.transport.pid : undefined;
    if (pid !== undefined && (this.state === 'running' || this.state === 'starting')) status.pid = pid;
    if (this.connectedAt && this.state === 'running') status.connectedAt = this.connectedAt.toISOString();
    if (this.connectMs !== undefined) status.connectMs = this.connectMs;
    if (this.lastError !== undefined) status.lastError = this.lastError;
    const serverInfo = this.state === 'running' ? this.client?.getServerVersion() : undefined;
    if (serverInfo) status.serverInfo = { name: serverInfo.name, version: serverInfo.version };
    return status;
  }

  /** The tools of the current connection (empty unless running), without those whose permission is `false`. */
  listTools(): ToolInfo[] {
    if (this.state !== 'running') return [];
    const permissions = this.config.toolPermissions;
    return this.tools.filter((tool) => permissions[tool.toolName] !== false);
  }

  /** Waits for a tool list refresh in flight (after `tools/list_changed`), so callers see the new list. */
  async settled(): Promise<void> {
    while (this.refreshing) await this.refreshing;
  }

  /** Starts on purpose: resets the restart counters. Resolves when running; rejects with why it failed. */
  async start(): Promise<void> {
    if (this.state === 'disabled') return;
    this.stoppedOnPurpose = false;
    if (this.state === 'running') return;
    if (this.connecting) return this.connecting;
    this.cancelRestart();
    this.restarts = 0;
    this.consecutiveRestarts = 0;
    return this.connect('start');
  }

  async stop(): Promise<void> {
    this.stoppedOnPurpose = true;
    this.cancelRestart();
    this.generation += 1;
    this.connecting = undefined;
    const hadTools = this.tools.length > 0;
    const wasStarting = this.state === 'starting';
    const { client, transport } = this;
    this.client = undefined;
    this.transport = undefined;
    this.tools = [];
    if (this.state !== 'disabled') this.setState('stopped');
    if (hadTools) this.settings.onToolsChanged(this.id, []);
    // A server still starting has nothing to finish: end it now instead of waiting for it to notice stdin closing.
    if (wasStarting && transport instanceof StdioProcessTransport) await transport.close({ immediate: true });
    else await closeQuietly(client, transport);
  }

  /** Synchronous last resort when the host exits without `stop()`: kills a stdio server's process group. */
  killNow(): void {
    this.cancelRestart();
    if (this.transport instanceof StdioProcessTransport) this.transport.killNow();
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
    const client = this.client;
    if (this.state !== 'running' || !client) {
      this.reconnectSoon();
      throw new ServerNotRunningError({ serverId: this.id, state: this.state });
    }
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    const params: Record<string, unknown> = { name: toolName, arguments: args };
    if (options.meta) params._meta = { ...options.meta };
    try {
      const result = await client.request({ method: 'tools/call', params }, PassThroughResultSchema, {
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
      return result as CallToolResult;
    } catch (error) {
      if (this.isRemoteConnectionFailure(error, options.signal))
        this.connectionLost(`call failed: ${errorMessage(error)}`);
      throw toBackendFailure(error, {
        serverId: this.id,
        operation: `tools/call ${toolName}`,
        timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        connectionDetail: () => this.exitDetail(),
      });
    }
  }

  async ping(timeoutMs: number): Promise<ServerHealth> {
    const client = this.client;
    if (this.state !== 'running' || !client) {
      return { id: this.id, ok: false, error: `not running (${this.state})` };
    }
    const started = performance.now();
    try {
      await client.ping({ timeout: timeoutMs });
      return { id: this.id, ok: true, latencyMs: round(performance.now() - started) };
    } catch (error) {
      const failure = toBackendFailure(error, { serverId: this.id, operation: 'ping', timeoutMs });
      return { id: this.id, ok: false, error: failure instanceof Error ? failure.message : String(failure) };
    }
  }

  /** Brings a crashed or failed server back now (a call found it down). Never throws. */
  private reconnectSoon(): void {
    if (this.state === 'disabled' || this.stoppedOnPurpose || this.connecting) return;
    if (this.state !== 'failed' && this.state !== 'crashed' && this.state !== 'stopped') return;
    // A burst of calls to a server that keeps failing must not become a burst of spawns.
    const throttleMs = Math.min(1000, this.settings.restartPolicy.initialDelayMs);
    if (this.state === 'failed' && Date.now() - this.lastConnectAttemptAt < throttleMs) return;
    this.cancelRestart();
    // A crashed server skips the rest of its backoff wait but stays in the backoff chain if it fails again.
    const reason = this.state === 'crashed' ? 'restart' : 'reconnect';
    if (reason === 'restart') this.restarts += 1;
    this.connect(reason).catch(() => {
      // connect() recorded the failure in status.
    });
  }

  private connect(reason: 'start' | 'restart' | 'reconnect'): Promise<void> {
    const generation = ++this.generation;
    const attempt = this.openAndList(generation, reason).finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
  }

  private async openAndList(generation: number, reason: 'start' | 'restart' | 'reconnect'): Promise<void> {
    const { config } = this;
    const timeoutMs = config.startupTimeoutMs;
    this.lastConnectAttemptAt = Date.now();
    this.setState('starting');
    this.logger.info('connecting', { reason, transport: config.transport });
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new TimeoutError({ timeoutMs })), timeoutMs);
    let client: Client | undefined;
    let transport: Transport | undefined;
    try {
      ({ client, transport } = await this.open(generation, timeoutMs, deadline.signal));
      const remaining = Math.max(1, timeoutMs - (performance.now() - started));
      const tools = await this.fetchTools(client, remaining, deadline.signal);
      if (generation !== this.generation) {
        await closeQuietly(client, transport);
        return;
      }
      this.client = client;
      this.transport = transport;
      this.tools = tools;
      this.connectedAt = new Date();
      this.connectMs = round(performance.now() - started);
      this.lastError = undefined;
      this.setState('running');
      this.logger.info('connected', { tools: tools.length, connectMs: this.connectMs });
      this.settings.onToolsChanged(this.id, tools);
    } catch (error) {
      await closeQuietly(client, transport);
      if (generation !== this.generation) return;
      const failure = this.describeStartFailure(error, timeoutMs, deadline.signal, transport);
      this.lastError = failure.message;
      this.logger.warn('could not connect', { error: failure.message });
      if (reason === 'restart' && !this.stoppedOnPurpose) this.scheduleRestart();
      else this.setState('failed');
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  private async open(
    generation: number,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<{ client: Client; transport: Transport }> {
    const { config } = this;
    const createClient = () => {
      const client = new Client(this.settings.clientInfo, { capabilities: {} });
      client.onerror = (error) => this.logger.debug('transport error', { error: error.message });
      client.onclose = () => this.handleClose(generation);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.refreshTools(generation);
      });
      return client;
    };
    let client: Client;
    let transport: Transport;
    if (config.transport === 'stdio') {
      const stdio = new StdioProcessTransport({
        command: config.command,
        args: config.args,
        env: { ...getDefaultEnvironment(), ...config.env },
        ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
        stderrTailLines: this.settings.stderrTailLines,
        closeGraceMs: this.settings.shutdownGraceMs,
        onStderrLine: (line) => this.logger.debug('stderr', { line }),
        onGarbageLine: (line) => this.logger.warn('ignored a stdout line that is not JSON-RPC', { line }),
      });
      transport = stdio;
      client = createClient();
      // Keep the transport even if connect fails, so its stderr can explain why.
      this.transport = stdio;
      try {
        await client.connect(new ProgressOrderingTransport(stdio), { timeout: timeoutMs, signal });
      } catch (error) {
        await closeQuietly(client, stdio);
        throw error;
      }
      this.transportKind = 'stdio';
    } else {
      const remote = await connectRemote(config, {
        createClient,
        timeoutMs,
        signal,
        logger: this.logger,
        ...(this.settings.fetch ? { fetch: this.settings.fetch } : {}),
      });
      client = remote.client;
      transport = remote.transport;
      this.transportKind = remote.kind;
    }
    return { client, transport };
  }

  /** Lists every page of tools, leniently, with a guard against servers whose cursors loop. */
  private async fetchTools(client: Client, timeoutMs: number, signal?: AbortSignal): Promise<ToolInfo[]> {
    const definitions: ToolDefinition[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxToolPages; page += 1) {
      let answer: z.infer<typeof ToolsPageSchema>;
      try {
        answer = await client.request(
          { method: 'tools/list', params: cursor !== undefined ? { cursor } : {} },
          ToolsPageSchema,
          { timeout: timeoutMs, ...(signal ? { signal } : {}) },
        );
      } catch (error) {
        // A server without tools (prompts or resources only) may not implement tools/list at all.
        if (error instanceof McpError && error.code === ErrorCode.MethodNotFound && page === 0) {
          this.logger.info('server does not implement tools/list; it has no tools');
          return [];
        }
        throw error;
      }
      const { tools, problems } = parseToolPage(answer.tools ?? []);
      for (const problem of problems) {
        this.logger.warn('dropped or repaired a malformed tool definition', { ...problem });
      }
      definitions.push(...tools);
      cursor = answer.nextCursor;
      if (cursor === undefined || cursor === '') break;
      if (seenCursors.has(cursor)) {
        this.logger.warn('tools/list returned a cursor it had returned before; stopped paging', { cursor });
        break;
      }
      seenCursors.add(cursor);
      if (page === maxToolPages - 1)
        this.logger.warn('tools/list has more than the page limit; stopped paging', { pages: maxToolPages });
    }
    const { tools, duplicates } = dropDuplicateTools(definitions);
    if (duplicates.length > 0) this.logger.warn('dropped tools with duplicate names', { duplicates });
    return tools.map((definition) => toToolInfo(this.id, definition, this.config));
  }

  private refreshTools(generation: number): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        const client = this.client;
        if (!client || generation !== this.generation || this.state !== 'running') return;
        try {
          const tools = await this.fetchTools(client, this.config.timeoutMs);
          if (generation !== this.generation || this.state !== 'running') return;
          this.tools = tools;
          this.logger.info('tool list changed', { tools: tools.length });
          this.settings.onToolsChanged(this.id, tools);
        } catch (error) {
          this.logger.warn('could not refresh the tool list', { error: errorMessage(error) });
        }
      } while (this.refreshAgain);
    })().finally(() => {
      this.refreshing = undefined;
    });
  }

  private handleClose(generation: number): void {
    if (generation !== this.generation) return;
    const detail = this.exitDetail();
    this.connectionLost(`connection closed unexpectedly${detail ? ` (${detail})` : ''}${this.stderrSummary()}`);
  }

  private connectionLost(reason: string): void {
    if (this.state !== 'running') return;
    this.lastError = reason;
    this.logger.warn('server connection lost', { reason });
    const { client } = this;
    this.client = undefined;
    this.tools = [];
    this.settings.onToolsChanged(this.id, []);
    this.scheduleRestart();
    // A remote transport may still hold a session or stream open; a stdio one has already ended.
    if (this.transportKind !== 'stdio') void client?.close().catch(() => {});
  }

  /**
   * A remote call that failed below MCP (connection refused, reset, session gone) means the connection is
   * broken; reconnecting is the cure. MCP errors and the caller's own cancellation say nothing about it.
   */
  private isRemoteConnectionFailure(error: unknown, signal?: AbortSignal): boolean {
    if (this.config.transport === 'stdio' || signal?.aborted) return false;
    if (error instanceof McpError) return false;
    return error instanceof Error;
  }

  private scheduleRestart(): void {
    const policy = this.settings.restartPolicy;
    if (this.connectedAt && Date.now() - this.connectedAt.getTime() >= policy.stableAfterMs) {
      this.consecutiveRestarts = 0;
    }
    this.connectedAt = undefined;
    if (this.consecutiveRestarts >= policy.maxAttempts) {
      this.lastError = `${this.lastError ?? 'crashed'}; gave up after ${policy.maxAttempts} restarts`;
      this.setState('failed');
      return;
    }
    this.consecutiveRestarts += 1;
    const delay = restartDelayMs(policy, this.consecutiveRestarts);
    this.setState('crashed');
    this.logger.info('restarting after backoff', { delayMs: delay, attempt: this.consecutiveRestarts });
    this.cancelRestart();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stoppedOnPurpose || this.state !== 'crashed') return;
      this.restarts += 1;
      this.connect('restart').catch(() => {
        // Recorded in status; scheduleRestart ran again from openAndList.
      });
    }, delay);
    this.restartTimer.unref();
  }

  private cancelRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private describeStartFailure(error: unknown, timeoutMs: number, deadline: AbortSignal, transport?: Transport): Error {
    const stderr = this.stderrSummary(transport);
    const detail = this.exitDetail(transport);
    let reason: string;
    if (deadline.aborted || (error instanceof McpError && error.code === ErrorCode.RequestTimeout)) {
      reason = `did not finish starting within ${timeoutMs} ms (startupTimeoutMs)`;
    } else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      reason = `exited during start-up${detail ? ` (${detail})` : ''}`;
    } else {
      const failure = toBackendFailure(error, { serverId: this.id, operation: 'start-up', timeoutMs });
      reason = failure instanceof Error ? failure.message.replace(`MCP server '${this.id}': `, '') : String(failure);
    }
    const message = `MCP server '${this.id}' ${reason}${stderr}`;
    return deadline.aborted
      ? new TimeoutError({ timeoutMs, message, cause: error })
      : new ServerNotRunningError({ serverId: this.id, state: 'failed', message, cause: error });
  }

  private exitDetail(transport: Transport | undefined = this.transport): string | undefined {
    if (!(transport instanceof StdioProcessTransport) || !transport.exit) return undefined;
    const { code, signal } = transport.exit;
    return signal ? `killed by ${signal}` : `exit code ${code}`;
  }

  private stderrSummary(transport: Transport | undefined = this.transport): string {
    if (!(transport instanceof StdioProcessTransport)) return '';
    const lines = transport.recentStderr().filter((line) => line.trim() !== '');
    if (lines.length === 0) return '';
    return `; stderr: ${lines.slice(-5).join(' | ')}`;
  }

  private setState(state: ServerState): void {
    const previous = this.state;
    if (previous === state) return;
    this.state = state;
    this.settings.onStatusChange(this.status(), previous);
  }
}

async function closeQuietly(client?: Client, transport?: Transport): Promise<void> {
  try {
    if (client) await client.close();
    else if (transport) await transport.close();
  } catch {
    // Closing a broken connection may fail; the process group is ended either way.
  }
  if (client && transport) await transport.close().catch(() => {});
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
