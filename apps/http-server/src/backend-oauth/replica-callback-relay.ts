import { createHash, randomUUID } from 'node:crypto';
import type { ClusterMessage, ClusterStore } from '@search-mcp/cluster';
import { BackendAuthorizationError, errorMessage, type Logger, type ServerStatus } from '@search-mcp/shared';
import type { BackendServers } from '../http-app-options.js';

const channel = 'backend-oauth-callback';
/** How long the callback page waits for the replica that started the login (docs/scale-out.md). */
export const relayWaitMs = 15_000;
/** Longer than any login waits for its person (the client manager's `authorizationTimeoutMs`, minutes). */
const flowRecordTtlMs = 30 * 60_000;
/** `BackendAuthorizationError.serverId` of a redirect whose state matches no authorization (client-manager). */
const unknownServer = '(unknown)';

/** Which replica started a login: kept under a hash of its `state`, never the state or the PKCE verifier. */
interface FlowRecord {
  replica: string;
  serverId: string;
}

type Outcome =
  | { kind: 'status'; status: ServerStatus }
  | { kind: 'refused'; serverId: string; step: BackendAuthorizationError['step']; statusCode: number; message: string }
  | { kind: 'failed'; message: string };

type RelayMessage =
  | { type: 'callback'; requestId: string; to: string; query: string }
  | { type: 'outcome'; requestId: string; to: string; outcome: Outcome };

/** The replica that started a login did not answer in time (stopped, or Redis lost the message). */
export class ReplicaCallbackTimeoutError extends Error {
  constructor(readonly serverId: string) {
    super(`the replica that started the authorization of '${serverId}' did not answer within ${relayWaitMs} ms`);
  }
}

/**
 * Backend OAuth across replicas (docs/scale-out.md, "Backend OAuth across replicas"): a login waits on the replica
 * that began it (its `state` and PKCE verifier stay in that process), while the balancer may send the browser's
 * `GET /oauth/callback` to any replica. `servers` is the client manager as the routes see it: `beginAuthorization`
 * records which replica holds the login, and a `completeAuthorization` no login here matches is published to that
 * replica, which completes it and publishes the outcome back. With a store that is not shared, `servers` is the
 * manager itself.
 */
export class ReplicaCallbackRelay {
  readonly servers: BackendServers;
  private readonly waiting = new Map<string, (outcome: Outcome) => void>();
  private readonly stopListening: (() => void) | undefined;

  constructor(
    private readonly manager: BackendServers,
    private readonly store: ClusterStore,
    private readonly logger: Logger,
  ) {
    if (!store.shared) {
      this.servers = manager;
      return;
    }
    this.stopListening = store.subscribe(channel, (message) => this.hear(message));
    this.servers = {
      status: () => manager.status(),
      beginAuthorization: (id, options) => this.begin(id, options),
      completeAuthorization: (query) => this.complete(query),
      restart: (id) => manager.restart(id),
      start: (id) => manager.start(id),
      stop: (id) => manager.stop(id),
      on: (event, listener) => manager.on(event, listener),
      off: (event, listener) => manager.off(event, listener),
    };
  }

  close(): void {
    this.stopListening?.();
    for (const settle of this.waiting.values()) settle({ kind: 'failed', message: 'this replica is shutting down' });
    this.waiting.clear();
  }

  private async begin(id: string, options: { redirectUrl: string; subject?: string }) {
    const result = await this.manager.beginAuthorization(id, options);
    const state = stateOf(result.authorizationUrl);
    if (state !== undefined) {
      const record: FlowRecord = { replica: this.store.replicaId, serverId: id };
      // Without the record, only a redirect that reaches this replica completes the login: still worth the URL.
      await this.store.setRecord(flowKey(state), record, { ttlMs: flowRecordTtlMs }).catch((error: unknown) => {
        this.logger.warn('could not record which replica holds an OAuth login', { error: errorMessage(error) });
      });
    }
    return result;
  }

  private async complete(query: URLSearchParams): Promise<ServerStatus> {
    try {
      return await this.manager.completeAuthorization(query);
    } catch (error) {
      const state = query.get('state');
      if (!BackendAuthorizationError.isInstance(error) || error.serverId !== unknownServer || !state) throw error;
      const record = await this.store.getRecord<FlowRecord>(flowKey(state));
      if (!record || record.replica === this.store.replicaId) throw error;
      return this.relay(record, query);
    }
  }

  /** Hands the redirect to the replica holding its login and waits for what happened there. */
  private async relay(record: FlowRecord, query: URLSearchParams): Promise<ServerStatus> {
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<Outcome | undefined>((resolve) => {
      this.waiting.set(requestId, resolve);
      timer = setTimeout(() => resolve(undefined), relayWaitMs);
    });
    try {
      const message: RelayMessage = { type: 'callback', requestId, to: record.replica, query: query.toString() };
      await this.store.publish(channel, message);
      const outcome = await answered;
      if (!outcome) throw new ReplicaCallbackTimeoutError(record.serverId);
      return settle(outcome);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(requestId);
    }
  }

  private hear(message: ClusterMessage): void {
    const body = message.body as RelayMessage | undefined;
    if (!body || body.to !== this.store.replicaId || typeof body.requestId !== 'string') return;
    if (body.type === 'outcome') {
      this.waiting.get(body.requestId)?.(body.outcome);
      return;
    }
    if (body.type === 'callback' && typeof body.query === 'string') {
      void this.completeFor(message.from, body.requestId, new URLSearchParams(body.query));
    }
  }

  /** Another replica got the redirect of a login this one holds: completed here, the outcome sent back. */
  private async completeFor(replica: string, requestId: string, query: URLSearchParams): Promise<void> {
    const outcome = await this.manager.completeAuthorization(query).then(
      (status): Outcome => ({ kind: 'status', status }),
      (error: unknown): Outcome =>
        BackendAuthorizationError.isInstance(error)
          ? {
              kind: 'refused',
              serverId: error.serverId,
              step: error.step,
              statusCode: error.statusCode,
              message: error.message,
            }
          : { kind: 'failed', message: errorMessage(error) },
    );
    const message: RelayMessage = { type: 'outcome', requestId, to: replica, outcome };
    await this.store.publish(channel, message).catch((error: unknown) => {
      this.logger.warn('could not send an OAuth callback outcome to the replica that got the redirect', {
        error: errorMessage(error),
      });
    });
  }
}

function settle(outcome: Outcome): ServerStatus {
  if (outcome.kind === 'status') return outcome.status;
  if (outcome.kind === 'refused') {
    const { kind: _kind, ...options } = outcome;
    throw new BackendAuthorizationError(options);
  }
  throw new Error(`the replica that started the authorization failed: ${outcome.message}`);
}

function stateOf(authorizationUrl: string | undefined): string | undefined {
  if (authorizationUrl === undefined) return undefined;
  try {
    return new URL(authorizationUrl).searchParams.get('state') ?? undefined;
  } catch {
    return undefined;
  }
}

function flowKey(state: string): string {
  return `oauth-flow/${createHash('sha256').update(state).digest('hex')}`;
}
