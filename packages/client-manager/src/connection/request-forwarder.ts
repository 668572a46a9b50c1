import {
  type BackendAuthorizationError,
  BackendError,
  errorMessage,
  type SecretRedactor,
  type ServerConfig,
  type McpCallToolResult,
} from '@search-mcp/shared';
import type { BackendPeer } from './backend-peer.js';
import type { BackendRequestOptions } from './backend-request-options.js';
import { authorizationFailureIn } from './connection-attempt.js';
import { forwardRequest } from './forward-request.js';
import {
  type CallToolOptions,
  type ForwardedCall,
  forwardToolCall,
  resolveMaxTotalTimeoutMs,
} from './forward-tool-call.js';
import { InFlightRequests } from './in-flight-requests.js';
import type { OriginTracker } from './origin-tracker.js';
import type { ProtocolErrors } from './protocol-errors.js';

/** What the forwarder needs to know of its connection, asked at each request. */
export interface ForwarderHost {
  readonly id: string;
  config(): ServerConfig;
  /** The client of the running connection; throws `ServerNotRunningError` (and reconnects soon) otherwise. */
  runningClient(): BackendPeer;
  /** Grows with each connection attempt and each stop. */
  generation(): number;
  /** Why the server was stopped on purpose, when it was (`was removed by a config reload and stopped`). */
  stopReason(): string | undefined;
  /** A remote request failed below MCP: the connection is broken. */
  connectionLost(reason: string): void;
  /**
   * A request failed for want of OAuth authorization (refused tokens and no refresh): what the caller is told (the
   * server waits in `needs-auth` when its authorization is gone).
   */
  authorizationFailed(failure: BackendAuthorizationError): Error;
  /** How the server process ended, for a connection that closed during a request. */
  exitDetail(): string | undefined;
  /** Streamable HTTP servers: exact attribution of reverse requests. */
  readonly originTracker?: OriginTracker;
}

/** Extra facts about one forwarded request. */
export interface ForwardExtra {
  /** For messages: `resources/read file:///x`. Default the method. */
  operation?: string;
  /** The tool, prompt or uri, recorded with the in-flight request. */
  name?: string;
  /** What is wrong with the result's shape, or undefined. */
  check?: (result: Record<string, unknown>) => string | undefined;
}

/**
 * Sends requests over one server's current connection: the limits of each (its own, the server's, the manager's),
 * the registry of requests in flight (for reverse-request attribution), secrets masked in every failure, and a
 * failure caused by a stop on purpose (a config reload) named as such.
 */
export class RequestForwarder {
  readonly inFlight = new InFlightRequests();

  constructor(
    private readonly host: ForwarderHost,
    private readonly settings: { maxTotalTimeoutMs?: number; redactor: SecretRedactor; errors: ProtocolErrors },
  ) {}

  async callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<McpCallToolResult> {
    const client = this.host.runningClient();
    const config = this.host.config();
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    // Every forwarded call builds this: one object, no spreads, the hooks made once per forwarder.
    const call: ForwardedCall = {
      serverId: this.host.id,
      toolName,
      args,
      options,
      timeoutMs,
      maxTotalTimeoutMs: resolveMaxTotalTimeoutMs(options, config, this.settings.maxTotalTimeoutMs, timeoutMs),
      inFlight: this.inFlight,
      remote: config.transport !== 'stdio',
      onConnectionFailure: this.onConnectionFailure,
      connectionDetail: this.connectionDetail,
      errors: this.settings.errors,
    };
    if (this.host.originTracker) call.originTracker = this.host.originTracker;
    return this.guard(`tools/call ${toolName}`, () => forwardToolCall(client, call));
  }

  async forward(
    method: string,
    params: Record<string, unknown>,
    options: BackendRequestOptions,
    extra: ForwardExtra,
  ): Promise<Record<string, unknown>> {
    const client = this.host.runningClient();
    const config = this.host.config();
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const operation = extra.operation ?? method;
    return this.guard(operation, () =>
      forwardRequest(client, {
        serverId: this.host.id,
        method,
        params,
        operation,
        options,
        timeoutMs,
        maxTotalTimeoutMs: resolveMaxTotalTimeoutMs({}, config, this.settings.maxTotalTimeoutMs, timeoutMs),
        inFlight: this.inFlight,
        ...(extra.name !== undefined ? { name: extra.name } : {}),
        ...(extra.check ? { check: extra.check } : {}),
        ...this.failureHooks(),
      }),
    );
  }

  /** The overall limit of a request to this server: its own setting, else the manager's, else 10 × `timeoutMs`. */
  overallLimitMs(): number {
    const config = this.host.config();
    return resolveMaxTotalTimeoutMs({}, config, this.settings.maxTotalTimeoutMs, config.timeoutMs);
  }

  /**
   * Tells the backend the client's roots changed (only when roots were declared with `listChanged`). Not to a
   * 2026-07-28 backend: the revision has no such notification (the 2.x client refuses it); such a backend asks for
   * roots with `input_required` each time it needs them, so it never holds a stale list.
   */
  async sendRootsListChanged(): Promise<void> {
    const client = this.host.runningClient();
    if (client.protocolEra === 'modern') return;
    const roots = client.declaredCapabilities.roots as { listChanged?: unknown } | undefined;
    if (roots?.listChanged !== true) return;
    await this.guard('notifications/roots/list_changed', () => client.sendRootsListChanged());
  }

  private failureHooks() {
    return {
      ...(this.host.originTracker ? { originTracker: this.host.originTracker } : {}),
      remote: this.host.config().transport !== 'stdio',
      onConnectionFailure: this.onConnectionFailure,
      connectionDetail: this.connectionDetail,
      errors: this.settings.errors,
    };
  }

  private readonly onConnectionFailure = (error: unknown) =>
    this.host.connectionLost(`call failed: ${errorMessage(error)}`);

  private readonly connectionDetail = () => this.host.exitDetail();

  /** Masks secrets in what fails, and names a stop on purpose (a config reload) that broke the request. */
  private async guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const generation = this.host.generation();
    try {
      return await run();
    } catch (error) {
      const stopReason = this.host.stopReason();
      if (generation !== this.host.generation() && stopReason !== undefined) {
        const message = `MCP server '${this.host.id}' ${stopReason} during ${operation}`;
        throw this.settings.redactor.redactDeep(new BackendError({ serverId: this.host.id, message, cause: error }));
      }
      const authorization = authorizationFailureIn(error);
      if (authorization) throw this.settings.redactor.redactDeep(this.host.authorizationFailed(authorization));
      // A backend may echo a secret in its error; the error's fields, message and cause are masked alike.
      throw this.settings.redactor.redactDeep(error);
    }
  }
}
