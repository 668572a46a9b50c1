import {
  BackendAuthorizationError,
  type Logger,
  type ServerConfig,
  ServerNotRunningError,
  type ServerStatus,
} from '@search-mcp/shared';
import type { ServerConnection } from '../connection/server-connection.js';
import type { EmitManagerEvent } from '../connection/notification-relays.js';
import type { CallerWiring } from '../manager-wiring.js';
import type { McpClientManagerEvents } from '../mcp-client-manager-options.js';
import type { AuthorizationCallback } from '../oauth/authorization-callback.js';
import { authorizationPrompt } from './authorization-prompt.js';
import { CallerConnection } from './caller-connection.js';
import type { PerUserLimits } from './per-user-options.js';
import { PerUserToolLists } from './per-user-tool-lists.js';

export interface PerUserConnectionsSettings {
  limits: PerUserLimits;
  /** Builds a caller's connection (`ManagerWiring.createConnection` with the caller). */
  createConnection: (config: ServerConfig, caller: CallerWiring) => ServerConnection;
  emit: EmitManagerEvent;
  /** The host's redirect URL for authorizations begun for callers (`oauth.redirectUrl`). */
  redirectUrl: () => string | undefined;
  /** The tool list callers' connections report for a server changed (see `PerUserToolLists`). */
  onToolsChanged: (serverId: string) => void;
  logger: Logger;
}

/**
 * The events of a caller's connection the manager passes on: those addressed to one request or task of theirs. A log
 * message or a resource or prompt change would reach every client of the server (resources, prompts and logging of a
 * per-user server stay on its shared connection), so they stay here.
 */
const relayedEvents = new Set<keyof McpClientManagerEvents>(['task-status', 'elicitation-complete']);

/**
 * Every caller's own connection to the servers with `identity: "per-user"` (README, "Per-user servers"): one per
 * server and subject, started at the caller's first call, closed after `idleTimeoutMs` without a call (its tokens stay
 * stored, so the next call reconnects without a login), at most `maxConnections` per server (the least recently used
 * idle one makes room). Each has its own OAuth credentials, stored under a key naming the subject, and never opens a
 * browser: a caller who has to authorize gets the URL of an authorization begun for them.
 */
export class PerUserConnections {
  private readonly servers = new Map<string, Map<string, CallerConnection>>();
  private readonly stopping = new Set<Promise<void>>();
  /** Servers an admin stopped (`stop`): their callers are refused until `start` or `restart`. */
  private readonly stopped = new Set<string>();
  readonly tools = new PerUserToolLists();

  constructor(private readonly settings: PerUserConnectionsSettings) {}

  get maxConnections(): number {
    return this.settings.limits.maxConnections;
  }

  /** Callers with a connection of their own to this server now. */
  count(serverId: string): number {
    return this.servers.get(serverId)?.size ?? 0;
  }

  /**
   * Runs `work` on the caller's own connection, started first (concurrent first calls share one start). A caller
   * without usable tokens gets `authorizationPrompt`'s error, with the URL of an authorization begun for them.
   */
  async run<T>(config: ServerConfig, subject: string, work: (connection: ServerConnection) => Promise<T>): Promise<T> {
    if (!config.enabled) throw new ServerNotRunningError({ serverId: config.id, state: 'disabled' });
    if (this.stopped.has(config.id)) {
      throw new ServerNotRunningError({
        serverId: config.id,
        state: 'stopped',
        isRetryable: false,
        message: `MCP server '${config.id}' was stopped on purpose: start or restart it before calling its tools`,
      });
    }
    const caller = this.acquire(config, subject);
    try {
      await this.ready(caller);
      try {
        return await work(caller.connection);
      } catch (error) {
        // The call met a token nobody can renew (revoked, expired for good): the caller has to authorize again.
        if (caller.connection.currentState === 'needs-auth') throw await this.prompt(caller, error);
        throw error;
      }
    } finally {
      this.release(caller);
    }
  }

  /** Begins a new authorization for the caller (the host's `beginAuthorization`); the URL, or none when not needed. */
  async begin(config: ServerConfig, subject: string, redirectUrl: string): Promise<string | undefined> {
    const caller = this.acquire(config, subject);
    try {
      return await caller.begin(redirectUrl, false);
    } finally {
      this.release(caller);
    }
  }

  /**
   * Completes the caller's authorization this redirect belongs to (by its `state`), then connects; its status.
   * Undefined when no caller's authorization waits for this `state`.
   */
  async complete(callback: AuthorizationCallback): Promise<ServerStatus | undefined> {
    const caller = this.findByState(callback.state);
    if (!caller) return undefined;
    caller.acquire();
    try {
      await caller.authorization.complete(callback);
      await caller.connection.connectSettled();
      await caller.connection.start();
      return caller.connection.status();
    } finally {
      this.release(caller);
    }
  }

  /** Revokes (where offered) and forgets the caller's tokens, and closes their connection. */
  async logout(config: ServerConfig, subject: string): Promise<ServerStatus> {
    const caller = this.acquire(config, subject);
    try {
      await caller.authorization.logout();
    } finally {
      this.release(caller);
    }
    await this.closeCaller(config.id, caller);
    return caller.connection.status();
  }

  /** Closes every caller's connection to a server (removed or changed by a reload) and forgets its tool list. */
  async closeServer(serverId: string, reason?: string): Promise<void> {
    const callers = [...(this.servers.get(serverId)?.values() ?? [])];
    this.tools.forget(serverId);
    await Promise.allSettled(callers.map((caller) => this.closeCaller(serverId, caller, reason)));
  }

  /**
   * An admin stopped the server (`stop`): every caller's connection closes and new calls are refused (a clear error)
   * until `resume`, so stopping a per-user server stops it for everyone.
   */
  async stopServer(serverId: string): Promise<void> {
    this.stopped.add(serverId);
    await this.closeServer(serverId, 'was stopped');
  }

  /** The server was started again (`start`, `restart`, `startAll`): callers may connect again. */
  resume(serverId?: string): void {
    if (serverId === undefined) this.stopped.clear();
    else this.stopped.delete(serverId);
  }

  /** Closes every caller's connection. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.servers.keys()].map((serverId) => this.closeServer(serverId)));
    await Promise.allSettled([...this.stopping]);
  }

  /** Synchronous last resort when the host exits without `close()`. */
  killNow(): void {
    for (const callers of this.servers.values()) {
      for (const caller of callers.values()) caller.connection.killNow();
    }
  }

  private findByState(state: string | undefined): CallerConnection | undefined {
    for (const callers of this.servers.values()) {
      for (const caller of callers.values()) if (caller.authorization.ownsState(state)) return caller;
    }
    return undefined;
  }

  /** The caller's connection, made (not started) when there is none, marked in use. */
  private acquire(config: ServerConfig, subject: string): CallerConnection {
    const existing = this.servers.get(config.id);
    let caller = existing?.get(subject);
    if (!caller) {
      if (existing && existing.size >= this.settings.limits.maxConnections) this.makeRoom(config.id, existing);
      caller = this.create(config, subject);
      // Looked up again: making room may have emptied (and dropped) the server's map.
      const callers = this.servers.get(config.id) ?? new Map<string, CallerConnection>();
      this.servers.set(config.id, callers);
      callers.set(subject, caller);
    }
    caller.acquire();
    return caller;
  }

  private release(caller: CallerConnection): void {
    caller.release(this.settings.limits.idleTimeoutMs, () => this.idle(caller));
  }

  /** No call for `idleTimeoutMs`: closed, unless an authorization begun for the caller still waits for its redirect. */
  private idle(caller: CallerConnection): void {
    const serverId = caller.connection.id;
    if (this.servers.get(serverId)?.get(caller.subject) !== caller) return;
    if (caller.waitingForPerson()) {
      caller.acquire();
      this.release(caller);
      return;
    }
    void this.closeCaller(serverId, caller);
  }

  /**
   * At the limit: the least recently used idle connection is closed (one waiting for its caller's authorization only
   * when no other is idle); when all are in use, the new caller is refused for now.
   */
  private makeRoom(serverId: string, callers: Map<string, CallerConnection>): void {
    const idle = [...callers.values()].filter((caller) => !caller.busy);
    const byAge = (left: CallerConnection, right: CallerConnection) => left.lastUsed - right.lastUsed;
    const oldest = idle.filter((caller) => !caller.waitingForPerson()).sort(byAge)[0] ?? idle.sort(byAge)[0];
    if (!oldest) {
      const limit = this.settings.limits.maxConnections;
      throw new ServerNotRunningError({
        serverId,
        isRetryable: true,
        message: `MCP server '${serverId}' has ${limit} per-user connections open, all in use (perUser.maxConnections is ${limit}): try again shortly`,
      });
    }
    void this.closeCaller(serverId, oldest);
  }

  private closeCaller(serverId: string, caller: CallerConnection, reason?: string): Promise<void> {
    const callers = this.servers.get(serverId);
    if (callers?.get(caller.subject) === caller) {
      callers.delete(caller.subject);
      if (callers.size === 0) this.servers.delete(serverId);
    }
    caller.cancelIdleTimer();
    const stopping = caller.connection.stop(reason).finally(() => this.stopping.delete(stopping));
    this.stopping.add(stopping);
    return stopping;
  }

  private create(config: ServerConfig, subject: string): CallerConnection {
    const connection = this.settings.createConnection(config, {
      subject,
      hooks: {
        emit: (event, ...args) => {
          if (relayedEvents.has(event)) this.settings.emit(event, ...args);
        },
        onStatusChange: (status, previous) =>
          this.settings.emit('per-user-status-change', config.id, subject, status, previous),
        onToolsChanged: (serverId, tools) => {
          if (this.tools.update(serverId, tools)) this.settings.onToolsChanged(serverId);
        },
      },
    });
    const { authorization } = connection;
    if (!authorization) {
      // Without OAuth every caller would reach the server as the same identity (its config's own header).
      throw new BackendAuthorizationError({
        serverId: config.id,
        step: 'authorization',
        statusCode: 400,
        message: `MCP server '${config.id}' is "per-user" but does not use OAuth (its config entry sends its own Authorization header: add an "oauth" key)`,
      });
    }
    return new CallerConnection(subject, connection, authorization);
  }

  /** Started and running; a caller without usable tokens gets the prompt to authorize. */
  private async ready(caller: CallerConnection): Promise<void> {
    try {
      await caller.connection.start();
    } catch (error) {
      if (caller.connection.currentState !== 'needs-auth') throw error;
      throw await this.prompt(caller, error);
    }
  }

  /**
   * The error that tells the caller to authorize: with the URL of an authorization begun for them (the one already
   * waiting, if any), when the host gave its redirect URL.
   */
  private async prompt(caller: CallerConnection, cause: unknown): Promise<BackendAuthorizationError> {
    const serverId = caller.connection.id;
    const redirectUrl = this.settings.redirectUrl();
    if (redirectUrl === undefined) return authorizationPrompt(serverId, undefined, cause);
    try {
      const url = await caller.begin(redirectUrl, true);
      return authorizationPrompt(serverId, url, cause);
    } catch (error) {
      this.settings.logger.warn('could not begin an authorization for a caller of a per-user server', {
        server: serverId,
        error: error instanceof Error ? error.message : String(error),
      });
      return authorizationPrompt(serverId, undefined, error);
    }
  }
}
