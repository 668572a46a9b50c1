import { type ClientCapabilities, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { errorMessage, isRecord, JsonRpcErrorCode, type Logger } from '@search-mcp/shared';
import { z } from 'zod';
import { TaskInputRelays } from '../tasks/parked-task-input.js';
import { TaskTable } from '../tasks/task-table.js';
import { JsonRpcWireError, toJsonRpcError } from '../wire-errors.js';
import type { ClientOrigin, ClientSession } from './client-session.js';
import { attributeReverseRequest, missingCapability, type ReverseMethod } from './reverse-request-attribution.js';
import { clientEraOf } from '../eras/client-era-of.js';

/** A backend's request to the client, as the client manager hands it over (structurally its `ReverseRequest`). */
export interface ReverseRequest {
  readonly serverId: string;
  readonly method: ReverseMethod;
  readonly backendRequestId: string | number;
  readonly params: Record<string, unknown>;
  readonly inFlight: ReadonlyArray<{ readonly origin: object; readonly method: string; readonly name?: string }>;
  readonly relatedTaskId?: string;
  readonly exactOrigin?: object;
  readonly signal: AbortSignal;
}

/** A URL-mode elicitation of Search MCP's own (`ClientSessions.elicitUrl`). */
export interface UrlElicitationRequest {
  /** The backend it is about: only a client whose caller may see it is asked. */
  serverId: string;
  url: string;
  /** Why the user should open the URL. */
  message: string;
  /** Unique; the later `completeElicitation` names it. */
  elicitationId: string;
  signal?: AbortSignal;
}

/** The client's answer: `accept` = the user agreed to open the URL (not that what happens there is done). */
export type UrlElicitationAction = 'accept' | 'decline' | 'cancel';

export interface ClientSessionsOptions {
  logger: Logger;
  /**
   * What backends are told the client can do. `'first-client'` (stdio: one client) = what the first client declared,
   * within what Search MCP forwards; an object = that set (HTTP: every session is checked per request). Default: the
   * full forwarded set.
   */
  backendCapabilities?: ClientCapabilities | 'first-client';
  /** How long a client may take to answer. Defaults: sampling 300 s, elicitation 600 s, roots 30 s. */
  timeoutsMs?: Partial<Record<ReverseMethod, number>>;
  /** How long a request no client call is waiting on may take (it may go to a stream nobody reads). Default 10 s. */
  unattributedTimeoutMs?: number;
}

/** Everything Search MCP can forward from backends to clients. */
export const forwardedClientCapabilities: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

const defaultTimeouts: Record<ReverseMethod, number> = {
  'sampling/createMessage': 300_000,
  'elicitation/create': 600_000,
  'roots/list': 30_000,
};
const rootsOwnerMs = 10_000;
/** How long `elicitUrl` waits for a client that declared its capabilities to finish its handshake. */
const handshakeWaitMs = 10_000;
const Loose = z.looseObject({});

/**
 * The directory of client sessions, and the router of backends' requests to them (sampling, elicitation, roots): it
 * picks the session (`attributeReverseRequest`), checks that its client declared the capability, sends the request
 * on the stream of the call that caused it, and gives the backend the answer or an error with a code — never a hang.
 * Structurally the client manager's `ReverseRequestRouter`.
 */
export class ClientSessions {
  /** The tasks clients created through us; reverse requests naming a task go to its session. */
  readonly tasks = new TaskTable();
  /** The requests 2025 backends' tasks pushed, held for 2026-07-28 clients' `tasks/update` (by our task id). */
  readonly taskInputs = new TaskInputRelays();
  private readonly sessions = new Map<string, ClientSession>();
  private readonly rootsOwners = new Map<string, { session: ClientSession; until: number }>();
  private readonly learned = new Set<string>();
  private readonly elicitations = new Map<string, string>();
  private readonly timeouts: Record<ReverseMethod, number>;
  private readonly unattributedTimeoutMs: number;
  private firstClient: ClientCapabilities | undefined;

  constructor(private readonly options: ClientSessionsOptions) {
    this.timeouts = { ...defaultTimeouts, ...options.timeoutsMs };
    this.unattributedTimeoutMs = options.unattributedTimeoutMs ?? 10_000;
  }

  add(session: ClientSession): void {
    this.sessions.set(session.key, session);
  }

  delete(session: ClientSession): void {
    this.sessions.delete(session.key);
    for (const [serverId, owner] of this.rootsOwners) if (owner.session === session) this.rootsOwners.delete(serverId);
    for (const [id, key] of this.elicitations) if (key === session.key) this.elicitations.delete(id);
  }

  /** The session of `key` while it is open (`all` says which are): an instance kept between requests is not. */
  get(key: string): ClientSession | undefined {
    const session = this.sessions.get(key);
    return session && isOpen(session) ? session : undefined;
  }

  /**
   * The sessions open now. A stateless instance between requests (HTTP 2026-07-28 instances kept ready per caller by
   * the http app) has no transport: nothing can reach its client, so it is left out, as if it were gone. An instance
   * the http app keeps connected for a caller's `tools/call` and `tools/list` has one between them and counts: its
   * client is about (`elicitUrl` then sees more than one client), though nothing reaches it outside its requests
   * (`canBeAskedDirectly`).
   */
  all(): ClientSession[] {
    return [...this.sessions.values()].filter(isOpen);
  }

  /** The session sent `notifications/roots/list_changed`: it answers the servers' `roots/list` for a while. */
  noteRootsOwner(serverId: string, session: ClientSession): void {
    this.rootsOwners.set(serverId, { session, until: Date.now() + rootsOwnerMs });
  }

  /** The session a URL-mode elicitation went to, for its `notifications/elicitation/complete`. */
  elicitationSession(elicitationId: string): ClientSession | undefined {
    const key = this.elicitations.get(elicitationId);
    if (key !== undefined) this.elicitations.delete(elicitationId);
    return key !== undefined ? this.get(key) : undefined;
  }

  /**
   * Asks the client, on Search MCP's own behalf, to send its user to `url` (a standalone URL-mode `elicitation/create`,
   * MCP 2025-11-25): `serve` sends a person to a backend's OAuth authorization this way (docs/oauth.md). Resolves with
   * the client's action, or `undefined` when no client can be asked: not exactly one session (stdio has one; over HTTP
   * nobody knows whose login it is), a 2026-07-28 client (no server-to-client requests outside its calls), a client
   * that did not declare `elicitation.url`, one whose caller may not see the server, or one that failed to answer.
   */
  async elicitUrl(request: UrlElicitationRequest): Promise<UrlElicitationAction | undefined> {
    const sessions = this.all();
    const session = sessions.length === 1 ? sessions[0] : undefined;
    if (!session || !canBeAskedDirectly(session) || !session.canSee(request.serverId)) return undefined;
    const params = { mode: 'url', message: request.message, url: request.url, elicitationId: request.elicitationId };
    if (missingCapability(session.capabilities(), 'elicitation/create', params)) return undefined;
    // Not before the handshake is over: `initialize` may still be waiting for backends' notes when a login is due.
    if (session.connected && !(await settledWithin(session.connected(), handshakeWaitMs))) return undefined;
    this.elicitations.set(request.elicitationId, session.key);
    try {
      const result = await session.server.request({ method: 'elicitation/create', params } as never, Loose, {
        timeout: this.timeouts['elicitation/create'],
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const action = (result as { action?: unknown }).action;
      if (action === 'accept') return action;
      this.elicitations.delete(request.elicitationId);
      return action === 'decline' ? action : 'cancel';
    } catch (error) {
      this.elicitations.delete(request.elicitationId);
      this.options.logger.debug('the client did not answer a URL elicitation', {
        server: request.serverId,
        error: errorMessage(error),
      });
      return undefined;
    }
  }

  /**
   * `notifications/elicitation/complete` for an accepted `elicitUrl`, to the session it went to: what the person did
   * at the URL is done (the client may close its prompt). Once per elicitation; nothing if that session is gone.
   */
  completeElicitation(elicitationId: string): void {
    const session = this.elicitationSession(elicitationId);
    if (!session?.server.transport) return;
    session.server
      .notification({ method: 'notifications/elicitation/complete', params: { elicitationId } } as never)
      .catch((error: unknown) => {
        this.options.logger.debug('could not send notifications/elicitation/complete', { error: errorMessage(error) });
      });
  }

  /**
   * What backends are told in `initialize`; asked at every connect. With `origin` (a 2026-07-28 backend's request
   * made for a client): for a 2026-07-28 client, what its request declared, so the backend refuses with `-32021`
   * what that client cannot answer (a 2025 client keeps the connection's: its own refusal is an error result).
   */
  clientCapabilities(_serverId: string, origin?: unknown): ClientCapabilities {
    const caller = asOrigin(origin);
    if (caller?.extra.clientEra.declaresCapabilitiesPer === 'request') {
      // A 2026-07-28 client declares per request; a request that declared nothing can answer nothing. The
      // connection's set below is what any client might answer, and would have the backend ask this one anyway.
      return servable(caller.parked?.clientCapabilities() ?? caller.extra.clientCapabilities ?? {});
    }
    const setting = this.options.backendCapabilities ?? forwardedClientCapabilities;
    if (setting !== 'first-client') return setting;
    this.firstClient ??= this.all()
      .map((session) => session.capabilities())
      .find((capabilities) => capabilities !== undefined);
    return this.firstClient ? servable(this.firstClient) : forwardedClientCapabilities;
  }

  /** Routes one backend request to a client and resolves with its answer; rejects with `{ code, message }`. */
  async route(request: ReverseRequest): Promise<Record<string, unknown>> {
    const inFlight = request.inFlight.flatMap((entry) => {
      const origin = asOrigin(entry.origin);
      // A 2026 client's parked call outlives the request (and, over HTTP, the server instance) that started it.
      return origin && (this.get(origin.session.key) !== undefined || origin.parked?.open === true)
        ? [
            {
              session: origin.session,
              method: entry.method,
              ...(entry.name !== undefined ? { name: entry.name } : {}),
              origin,
            },
          ]
        : [];
    });
    const task =
      request.relatedTaskId !== undefined ? this.tasks.byBackendId(request.serverId, request.relatedTaskId) : undefined;
    const taskOwner = task ? this.get(task.sessionKey) : undefined;
    const exact = asOrigin(request.exactOrigin);
    const attribution = attributeReverseRequest(
      {
        serverId: request.serverId,
        method: request.method,
        params: request.params,
        inFlight,
        ...(taskOwner ? { taskOwner } : {}),
        ...(exact && this.get(exact.session.key) !== undefined
          ? { exactOrigin: { session: exact.session, method: 'exact', origin: exact } }
          : {}),
      },
      {
        sessions: () => this.all().filter(canBeAskedDirectly),
        rootsOwner: (serverId) => {
          const owner = this.rootsOwners.get(serverId);
          return owner && owner.until > Date.now() ? owner.session : undefined;
        },
        causedBefore: (serverId, name, method) => this.learned.has(learnedKey(serverId, name, method)),
      },
    );
    if (attribution.kind === 'none') throw new JsonRpcWireError(attribution.code, attribution.message);
    const { session } = attribution;
    const origin = attribution.origin?.origin as ClientOrigin | undefined;
    if (clientEraOf(session.era).asksClientBy === 'park') return this.park(request, origin);
    const missing = missingCapability(session.capabilities(), request.method, request.params);
    if (missing) throw new JsonRpcWireError(missing.code, missing.message);
    if (!attribution.exact) {
      this.options.logger.warn('a backend request went to the most likely client session (several were calling)', {
        server: request.serverId,
        method: request.method,
        session: session.key,
      });
    } else if (attribution.origin?.name !== undefined) {
      this.learned.add(learnedKey(request.serverId, attribution.origin.name, request.method));
    }
    const params = task ? withExposedTaskId(request.params, task.exposedId) : request.params;
    if (request.method === 'elicitation/create' && params.mode === 'url' && typeof params.elicitationId === 'string')
      this.elicitations.set(params.elicitationId, session.key);
    const timeout = origin
      ? this.timeouts[request.method]
      : Math.min(this.timeouts[request.method], this.unattributedTimeoutMs);
    const options = { signal: request.signal, timeout };
    try {
      // On the stream of the call that caused it (Streamable HTTP: that POST's SSE stream), else the session's own.
      const result = origin
        ? await origin.extra.sendRequest({ method: request.method, params } as never, Loose, options)
        : await session.server.request({ method: request.method, params } as never, Loose, options);
      return result as Record<string, unknown>;
    } catch (error) {
      throw clientFailure(error, session, this.sessions);
    }
  }

  /**
   * A 2026-07-28 client's call caused the request: it waits in the call until the client's retry answers it (the call
   * answers the client `input_required`). Only what the client's latest request declared is asked; anything else gets
   * the error a 2025 client lacking the capability causes.
   */
  private park(request: ReverseRequest, origin: ClientOrigin | undefined): Promise<Record<string, unknown>> {
    const parked = origin?.parked;
    if (!parked?.open) throw modernClientRefusal(request.method);
    const missing = missingCapability(parked.clientCapabilities(), request.method, request.params);
    if (missing) throw new JsonRpcWireError(missing.code, missing.message);
    return parked.ask(request.method, request.params, {
      signal: request.signal,
      timeoutMs: this.timeouts[request.method],
    });
  }
}

/**
 * What a backend hears when the client it would ask speaks 2026-07-28 and no call of that client waits for it (the
 * request came outside a tool call, prompt get or resource read of it, e.g. during a completion or a list): that revision has no server-to-client requests, only `input_required` answers to a
 * call. The code is 2026-07-28's "missing required client capability".
 */
function modernClientRefusal(method: string): JsonRpcWireError {
  return new JsonRpcWireError(
    JsonRpcErrorCode.MissingRequiredClientCapability,
    `The client uses MCP 2026-07-28, which has no server-to-client requests; Search MCP can pass this ${method} to it only during one of its tools/call, prompts/get or resources/read requests`,
    // A `ClientCapabilities` object naming what is missing, as the revision defines the field.
    { requiredCapabilities: { [method.split('/')[0] as string]: {} } },
  );
}

/** Whether `promise` settles within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function asOrigin(value: unknown): ClientOrigin | undefined {
  return isRecord(value) && isRecord(value.session) && isRecord(value.extra)
    ? (value as unknown as ClientOrigin)
    : undefined;
}

function learnedKey(serverId: string, name: string | undefined, method: string): string {
  return `${serverId}\u0000${name ?? ''}\u0000${method}`;
}

/** The backend's task id in the related-task `_meta` becomes ours: the client only knows ours. */
function withExposedTaskId(params: Record<string, unknown>, exposedId: string): Record<string, unknown> {
  const meta = isRecord(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: exposedId } } };
}

/** A client's own capabilities, narrowed to what Search MCP forwards. */
function servable(client: ClientCapabilities): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (client.sampling) capabilities.sampling = client.sampling.tools ? { tools: {} } : {};
  if (client.elicitation) {
    const { form, url } = client.elicitation;
    capabilities.elicitation = {
      ...(form !== undefined || url === undefined ? { form: {} } : {}),
      ...(url !== undefined ? { url: {} } : {}),
    };
  }
  if (client.roots) capabilities.roots = { listChanged: true };
  return capabilities;
}

/** The error the backend gets when the client failed to answer: the client's own, or why there was none. */
function clientFailure(error: unknown, session: ClientSession, open: Map<string, ClientSession>): JsonRpcWireError {
  if (!open.has(session.key) || !session.server.transport) {
    return new JsonRpcWireError(-32603, 'The client disconnected');
  }
  const wire = toJsonRpcError(error, '');
  if (wire.code === -32000 && /connection closed/i.test(errorMessage(error))) {
    return new JsonRpcWireError(-32603, 'The client disconnected');
  }
  return wire;
}

/** A session a backend's request can be sent to as a request of its own: its era pushes, and it has a stream. */
function canBeAskedDirectly(session: ClientSession): boolean {
  const era = clientEraOf(session.era);
  return era.asksClientBy === 'push' && era.hasStreamOutsideRequests(session.stateless);
}

/** Whether a client can be reached through the session: a stateless instance is only while it serves a request. */
function isOpen(session: ClientSession): boolean {
  return !session.stateless || session.server.transport !== undefined;
}
