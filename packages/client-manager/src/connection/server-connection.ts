import type { McpCallToolResult, ServerHealth } from '@search-mcp/shared';
import type { RequestOrigin } from '../reverse/reverse-request-types.js';
import type { BackendRequestOptions } from './backend-request-options.js';
import { describeExit } from './failure-messages.js';
import type { CallToolOptions } from './forward-tool-call.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { pingServer } from './ping-server.js';
import { type ForwardExtra, RequestForwarder } from './request-forwarder.js';
import type { ServerConnectionSettings } from './server-connection-settings.js';
import { ServerLifeCycle } from './server-life-cycle.js';

export type { ServerConnectionSettings } from './server-connection-settings.js';

/**
 * One backend server: its life cycle (`ServerLifeCycle`: connect, restart, stop) and the requests sent over its
 * running connection (`RequestForwarder`: limits, in-flight registry, secrets masked in failures). A request to a
 * server that is not running fails with `ServerNotRunningError` and brings it back soon.
 */
export class ServerConnection extends ServerLifeCycle {
  private readonly requests: RequestForwarder;

  constructor(settings: ServerConnectionSettings) {
    super(settings);
    this.requests = new RequestForwarder(
      {
        id: this.id,
        config: () => this.config,
        runningClient: () => this.runningClient(),
        generation: () => this.generation,
        stopReason: () => this.stopReason,
        connectionLost: (reason) => this.connectionLost(reason),
        authorizationFailed: (failure) => this.authorizationFailed(failure),
        exitDetail: () => describeExit(this.process?.exit),
        ...(this.originTracker ? { originTracker: this.originTracker } : {}),
      },
      settings,
    );
  }

  protected get inFlight(): InFlightRequests {
    return this.requests.inFlight;
  }

  /** Forwards a `tools/call`; see `RequestForwarder` (not running → `ServerNotRunningError`, reconnect soon). */
  callTool(toolName: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<McpCallToolResult> {
    return this.requests.callTool(toolName, args, options);
  }

  /** The origins of the requests of ours to this server that carry one and are in flight now, newest first. */
  inFlightOrigins(): RequestOrigin[] {
    return this.requests.inFlight.list().map((request) => request.origin);
  }

  /** Forwards any request (resources, prompts, completion, logging, tasks); the result passes unchanged. */
  forward(
    method: string,
    params: Record<string, unknown>,
    options: BackendRequestOptions = {},
    extra: ForwardExtra = {},
  ): Promise<Record<string, unknown>> {
    // A 2026-07-28 backend has no `resources/subscribe`: its subscriptions are the listen stream's filter.
    if (this.listening.handles(method)) return this.listening.updateSubscriptions();
    return this.requests.forward(method, params, options, extra);
  }

  overallLimitMs(): number {
    return this.requests.overallLimitMs();
  }

  sendRootsListChanged(): Promise<void> {
    return this.requests.sendRootsListChanged();
  }

  /** The backend's `instructions` from `initialize`; undefined unless running. */
  instructions(): string | undefined {
    return this.state === 'running' ? this.client?.getInstructions() : undefined;
  }

  async ping(timeoutMs: number): Promise<ServerHealth> {
    const client = this.client;
    if (this.state !== 'running' || !client) {
      return { id: this.id, ok: false, error: `not running (${this.state})` };
    }
    const health = await pingServer(client, this.id, timeoutMs, this.settings.errors);
    return health.error === undefined ? health : { ...health, error: this.settings.redactor.redact(health.error) };
  }
}
