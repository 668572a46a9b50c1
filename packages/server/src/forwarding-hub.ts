import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/server';
import { type Caller, isServerVisibleToProject, isWholeServerAllowed, type ToolCatalog } from '@search-mcp/catalog';
import type { ClusterStore } from '@search-mcp/cluster';
import { errorMessage, isRecord, type Logger } from '@search-mcp/shared';
import { type InstructionsBudget, summarizeBackendInstructions } from './backend-instructions.js';
import type { BackendGateway, BackendGatewayEvents, Listed } from './forwarding/backend-gateway.js';
import { PendingInputs } from './input/pending-inputs.js';
import { LogLevels } from './logging/log-levels.js';
import { requestsHearingLog, sessionCallInFlight } from './logging/request-log-relay.js';
import { PromptTable } from './prompts/prompt-table.js';
import {
  type ListenResourceSubscription,
  subscribeListenResources,
  unsubscribeListenResources,
} from './resources/listen-resource-subscriptions.js';
import { type DuplicateResource, ResourceRoutes } from './resources/resource-routes.js';
import { ResourceSubscriptions } from './resources/resource-subscriptions.js';
import type { ClientSession } from './sessions/client-session.js';
import type { ClientSessions } from './sessions/client-sessions.js';
import { ClusterTaskRecords, type ClusterTaskRecordsSettings } from './tasks/cluster-task-records.js';
import { clientEraOf } from './eras/client-era-of.js';

export interface ForwardingHubOptions {
  gateway: BackendGateway;
  catalog: ToolCatalog;
  sessions: ClientSessions;
  logger: Logger;
  /** Quiet time before `resources/list_changed` / `prompts/list_changed` go out. Default 200 ms. */
  listChangedDebounceMs?: number;
  instructionsBudget?: InstructionsBudget;
  /**
   * The calls held for 2026-07-28 clients' retries and the key that seals our `requestState`, shared by every server
   * instance of the hub (a retry may reach another instance). Default: a new one with a random key.
   */
  pendingInputs?: PendingInputs;
  /**
   * The store replicas share (`@search-mcp/cluster`): tasks are written through to it, so any replica answers a task
   * created through another, and one whose replica stopped reads `failed` (packages/server/README.md, "Tasks across
   * replicas"). Pass it only when it is shared (`store.shared`); without one, tasks live in this hub alone.
   */
  clusterStore?: ClusterStore;
  /** The tasks' heartbeat and result size limit in the store (`ClusterTaskRecordsSettings`). */
  clusterTasks?: ClusterTaskRecordsSettings;
}

type ListKind = 'resources' | 'prompts';

/**
 * What every client session of one runtime shares to forward resources, prompts, completions, logging and tasks:
 * resource routes, prompt lists, subscriptions, log levels and the task table, and the relays of backend events to
 * the sessions that should hear them (never to a session that cannot see the server).
 */
export class ForwardingHub {
  readonly gateway: BackendGateway;
  readonly catalog: ToolCatalog;
  readonly sessions: ClientSessions;
  readonly routes: ResourceRoutes;
  readonly logLevels = new LogLevels();
  readonly logger: Logger;
  /** The calls held for 2026-07-28 clients' retries, for every instance of the hub (`ForwardingHubOptions`). */
  readonly pendingInputs: PendingInputs;
  /** With a `clusterStore`: the tasks written through to it, read by every replica. */
  readonly taskRecords: ClusterTaskRecords | undefined;
  private readonly promptLists = new Map<string, Promise<ReadonlyArray<Listed & { name: string }>>>();
  private readonly promptTables = new Map<string, PromptTable>();
  private readonly subscriptions: ResourceSubscriptions;
  private readonly pendingListChanged = new Map<string, { kinds: Set<ListKind>; timer: NodeJS.Timeout }>();
  private readonly listeners: Array<() => void> = [];
  private readonly debounceMs: number;
  private readonly budget: InstructionsBudget | undefined;

  constructor(options: ForwardingHubOptions) {
    this.gateway = options.gateway;
    this.catalog = options.catalog;
    this.sessions = options.sessions;
    this.logger = options.logger;
    this.pendingInputs = options.pendingInputs ?? new PendingInputs();
    this.debounceMs = options.listChangedDebounceMs ?? 200;
    this.budget = options.instructionsBudget;
    this.taskRecords = options.clusterStore
      ? new ClusterTaskRecords({
          ...options.clusterTasks,
          store: options.clusterStore,
          gateway: this.gateway,
          tasks: this.sessions.tasks,
          logger: this.logger,
        })
      : undefined;
    this.routes = new ResourceRoutes(this.gateway, { logger: this.logger });
    this.subscriptions = new ResourceSubscriptions(this.gateway, this.logger);
    this.listen('status-change', () => void this.subscriptions.sendWaiting());
    this.listen('log-message', (serverId, params) => this.relayLog(serverId, params));
    this.listen('resource-updated', (serverId, params) => this.relayResourceUpdated(serverId, params));
    this.listen('resources-changed', (serverId) => {
      this.routes.invalidate(serverId);
      this.listChanged(serverId, 'resources');
    });
    this.listen('prompts-changed', (serverId) => {
      this.promptLists.delete(serverId);
      this.promptTables.clear();
      this.listChanged(serverId, 'prompts');
    });
    // Prompts are listed under names in the style of `exposure.names`: a reload that changes it changes their list.
    let promptNames = this.catalog.config.exposure.names;
    this.listeners.push(
      this.catalog.onNamingChanged(() => {
        if (this.catalog.config.exposure.names === promptNames) return;
        promptNames = this.catalog.config.exposure.names;
        for (const serverId of this.promptLists.keys()) this.listChanged(serverId, 'prompts');
      }),
    );
    this.listen('task-status', (serverId, params) => this.relayTaskStatus(serverId, params));
    this.listen('elicitation-complete', (_serverId, params) => {
      const session = this.sessions.elicitationSession(params.elicitationId);
      if (session) this.notify(session, { method: 'notifications/elicitation/complete', params: { ...params } });
    });
  }

  /**
   * The servers a caller may use now, in config order: enabled, visible to its project (and token), running: the
   * catalog's rule, so resources and prompts are visible exactly where tools are.
   * @throws AuthenticationError, AuthorizationError (a refused caller)
   */
  async visibleServerIds(caller: Caller): Promise<string[]> {
    return this.catalog.visibleServerIds(caller);
  }

  /**
   * Whether a server of the config may be seen by a caller's project and roles (no state, no token check): its log
   * messages, list changes and resource updates reach past its tools, so an OAuth caller needs the whole server
   * (docs/oauth-in-front.md, "Roles").
   */
  canSee(serverId: string, caller: Caller): boolean {
    const server = this.catalog.config.mcpServers[serverId];
    return (
      server?.enabled === true &&
      isServerVisibleToProject(server.projects, caller.projectId) &&
      isWholeServerAllowed(caller.access, caller.projectId, serverId)
    );
  }

  offers(serverId: string, capability: string): boolean {
    return this.gateway.serverCapabilities(serverId)?.[capability] !== undefined;
  }

  /** The prompts of these servers (all pages, cached until a server says its prompts changed). */
  async prompts(serverIds: readonly string[]): Promise<PromptTable> {
    const withPrompts = serverIds.filter((id) => this.offers(id, 'prompts'));
    // The naming style is part of the key: a reload may change `exposure.names`.
    const style = this.catalog.config.exposure.names;
    const key = `${style}\u0001${withPrompts.join('\u0000')}`;
    const cached = this.promptTables.get(key);
    if (cached) return cached;
    const lists = await Promise.all(
      withPrompts.map(async (serverId) => ({
        serverId,
        prompts: await this.promptListOf(serverId).catch((error: unknown) => {
          this.logger.debug('could not list prompts', { server: serverId, error: errorMessage(error) });
          return [];
        }),
      })),
    );
    const table = new PromptTable(lists, style);
    if (withPrompts.every((id) => this.promptLists.has(id))) this.promptTables.set(key, table);
    return table;
  }

  /**
   * Subscribes a session to a resource of a server (once per session). A server that does not offer subscriptions is
   * not asked: the subscription waits until it does (`resources/resource-subscriptions.ts`).
   */
  async subscribe(session: ClientSession, serverId: string, uri: string): Promise<void> {
    await this.subscriptions.subscribe(session.key, serverId, uri);
  }

  /** Ends a session's subscription to a uri, at whichever server holds it. */
  async unsubscribe(session: ClientSession, uri: string): Promise<void> {
    await this.subscriptions.unsubscribe(session.key, uri);
  }

  /**
   * Subscribes the resource uris of a 2026-07-28 `subscriptions/listen` stream of a caller at the servers that serve
   * them and offer subscriptions; resolves with the subscriptions made, which are what the stream's acknowledgement
   * may promise (`resources/listen-resource-subscriptions.ts`). Both apps' streams use it.
   */
  subscribeListen(caller: Caller, uris: readonly string[]): Promise<ListenResourceSubscription[]> {
    return subscribeListenResources(this, caller, uris, this.logger);
  }

  /** Ends an ended listen stream's subscriptions at the backends (in the background). */
  unsubscribeListen(subscribed: readonly ListenResourceSubscription[]): void {
    unsubscribeListenResources(this, subscribed, this.logger);
  }

  /** Records a session's log level and tells the running servers with logging the most verbose level wanted. */
  async setLevel(session: ClientSession, level: LoggingLevel, serverIds: readonly string[]): Promise<void> {
    const backendLevel = this.logLevels.set(session.key, level);
    await this.sendLevel(backendLevel, serverIds);
  }

  /** The backends' instructions for this caller's servers, summarised within the budget. */
  instructionsFor(serverIds: readonly string[]): string {
    return summarizeBackendInstructions(
      serverIds.map((serverId) => ({ serverId, instructions: this.gateway.serverInstructions(serverId) })),
      this.budget,
    );
  }

  /** URIs several servers list, and which answers them (config order). For `doctor`. */
  async duplicates(): Promise<DuplicateResource[]> {
    const running = await this.visibleServerIdsOfAll();
    return this.routes.duplicates(running);
  }

  /** A session opened. */
  addSession(session: ClientSession): void {
    this.sessions.add(session);
  }

  /** A session closed: its subscriptions and log level go with it. */
  removeSession(session: ClientSession): void {
    this.sessions.delete(session);
    const pending = this.pendingListChanged.get(session.key);
    if (pending) clearTimeout(pending.timer);
    this.pendingListChanged.delete(session.key);
    this.subscriptions.removeSession(session.key);
    const hadLevel = this.logLevels.backendLevel();
    const level = this.logLevels.delete(session.key);
    if (level !== undefined && level !== hadLevel) void this.sendLevel(level, this.runningWithLogging());
  }

  /** Stops listening to the backends, and (with a cluster store) writing tasks through and the heartbeat. */
  async close(): Promise<void> {
    for (const off of this.listeners.splice(0)) off();
    for (const { timer } of this.pendingListChanged.values()) clearTimeout(timer);
    this.pendingListChanged.clear();
    await this.taskRecords?.close();
  }

  private listen<E extends keyof BackendGatewayEvents>(
    event: E,
    listener: (...args: BackendGatewayEvents[E]) => void,
  ): void {
    // The overloads of `on`/`off` name each event; one generic call cannot pick an overload.
    const gateway = this.gateway as unknown as {
      on(event: string, listener: (...args: never) => void): unknown;
      off(event: string, listener: (...args: never) => void): unknown;
    };
    gateway.on(event, listener);
    this.listeners.push(() => gateway.off(event, listener));
  }

  private promptListOf(serverId: string): Promise<ReadonlyArray<Listed & { name: string }>> {
    let list = this.promptLists.get(serverId);
    if (!list) {
      list = (async () => {
        const prompts: Array<Listed & { name: string }> = [];
        const seen = new Set<string>();
        let cursor: string | undefined;
        do {
          const page = await this.gateway.listPrompts(serverId, cursor);
          prompts.push(...page.prompts);
          cursor = page.nextCursor;
          if (cursor !== undefined && seen.has(cursor)) break;
          if (cursor !== undefined) seen.add(cursor);
        } while (cursor !== undefined);
        return prompts;
      })();
      this.promptLists.set(serverId, list);
      list.catch(() => {
        if (this.promptLists.get(serverId) === list) this.promptLists.delete(serverId);
      });
    }
    return list;
  }

  private async sendLevel(level: LoggingLevel, serverIds: readonly string[]): Promise<void> {
    await Promise.all(
      serverIds
        .filter((id) => this.offers(id, 'logging'))
        .map((id) =>
          this.gateway.setLoggingLevel(id, level).catch((error: unknown) => {
            this.logger.debug('could not set the log level of a server', { server: id, error: errorMessage(error) });
          }),
        ),
    );
  }

  private runningWithLogging(): string[] {
    return this.gateway
      .status()
      .filter((status) => status.state === 'running' && this.offers(status.id, 'logging'))
      .map((status) => status.id);
  }

  private async visibleServerIdsOfAll(): Promise<string[]> {
    const running = new Set(
      this.gateway
        .status()
        .filter((status) => status.state === 'running')
        .map((status) => status.id),
    );
    return Object.keys(this.catalog.config.mcpServers).filter((id) => running.has(id));
  }

  private relayLog(serverId: string, params: BackendGatewayEvents['log-message'][1]): void {
    const { logger: backendLogger, _meta, ...rest } = params;
    const meta = {
      ...(isRecord(_meta) ? _meta : {}),
      ...(backendLogger !== undefined ? { 'search-mcp/logger': backendLogger } : {}),
    };
    const notification = {
      method: 'notifications/message' as const,
      params: { ...rest, logger: serverId, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) },
    };
    const origins = this.gateway.inFlightOrigins(serverId);
    // 2025 sessions, at the session's level: on the stream of the session's call to the server in flight (newest),
    // else on the session's own. A 2026-07-28 client never gets one outside a request.
    for (const session of this.sessions.all()) {
      const era = clientEraOf(session.era);
      if (era.logsBy !== 'session' || !era.hasStreamOutsideRequests(session.stateless)) continue;
      if (!session.canSee(serverId)) continue;
      if (!this.logLevels.passes(session.key, params.level)) continue;
      const call = sessionCallInFlight(session, origins);
      if (!call) {
        this.notify(session, notification);
        continue;
      }
      // The call's stream is gone (its response went out meanwhile): nothing was sent, so the session's own stream.
      call.sendNotification(notification).catch(() => this.notify(session, notification));
    }
    for (const extra of requestsHearingLog(serverId, params.level, origins)) {
      extra.sendNotification(notification).catch((error: unknown) => {
        this.logger.debug('could not send a log message within a request', { error: errorMessage(error) });
      });
    }
  }

  private relayResourceUpdated(serverId: string, params: BackendGatewayEvents['resource-updated'][1]): void {
    for (const session of this.sessions.all()) {
      if (this.subscriptions.hears(session.key, serverId, params.uri) && session.canSee(serverId))
        this.notify(session, { method: 'notifications/resources/updated', params: { ...params } });
    }
  }

  private relayTaskStatus(serverId: string, params: BackendGatewayEvents['task-status'][1]): void {
    const task = this.sessions.tasks.byBackendId(serverId, params.taskId);
    if (task) this.taskRecords?.noteStatus(task, params);
    const session = task ? this.sessions.get(task.sessionKey) : undefined;
    if (!task || !session) return;
    this.notify(session, { method: 'notifications/tasks/status', params: { ...params, taskId: task.exposedId } });
  }

  private listChanged(serverId: string, kind: ListKind): void {
    for (const session of this.sessions.all()) {
      if (session.stateless || !session.canSee(serverId)) continue;
      const pending = this.pendingListChanged.get(session.key);
      if (pending) {
        pending.kinds.add(kind);
        continue;
      }
      const timer = setTimeout(() => {
        const entry = this.pendingListChanged.get(session.key);
        this.pendingListChanged.delete(session.key);
        for (const changed of entry?.kinds ?? []) {
          this.notify(session, {
            method: `notifications/${changed}/list_changed` as 'notifications/resources/list_changed',
          });
        }
      }, this.debounceMs);
      timer.unref();
      this.pendingListChanged.set(session.key, { kinds: new Set([kind]), timer });
    }
  }

  private notify(session: ClientSession, notification: ServerNotification | { method: string; params?: object }): void {
    if (!session.server.transport) return;
    session.server.notification(notification as ServerNotification).catch((error: unknown) => {
      this.logger.debug('could not notify a client session', { error: errorMessage(error) });
    });
  }
}
