import { randomUUID } from 'node:crypto';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { type ClusterStore, createMemoryClusterStore } from '@search-mcp/cluster';
import type { Logger, SecretRedactor } from '@search-mcp/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createNodeSessionTransport } from '../legacy/node-session-transport.js';
import { callerOf } from '../request-context.js';
import type { EndpointSession as Session } from './endpoint-session.js';
import type { EraServerFactory } from './era-server-factory.js';
import type { McpServerConnection as Server, McpServerFactory, McpServerOverrides } from './mcp-server-factory.js';
import { createListenStreams, type ListenHub } from './listen-streams.js';
import { createModernMcpLeg } from './modern-mcp-leg.js';
import { SessionPool } from './session-pool.js';
import { requestIdsOf, SessionEventStore, sseRetryIntervalMs } from './session-event-store.js';
import { createSessionRebuilder } from './session-rebuild.js';
import { applyChangeFromElsewhere } from './session-state-replay.js';
import { forgetUnknownLastEventId } from './unknown-last-event-id.js';
import { type SessionEnd, SharedSessions } from './shared-sessions.js';
import { type PendingRequestListener, TrackedTransport } from './tracked-transport.js';

export interface McpEndpointOptions {
  createServer: McpServerFactory;
  /**
   * One server instance per request of an era (the runtime's `serverFactory`): with it, 2026-07-28 clients are served
   * next to the 2025 sessions (no session, `Mcp-Method`/`Mcp-Name` checked). Without it, their requests get the 2025
   * endpoint's answer (send `initialize` first).
   */
  serverFactory?: EraServerFactory;
  /**
   * The runtime's hub: with it (and `serverFactory`), 2026-07-28 clients' `subscriptions/listen` streams hear of
   * list changes and resource updates of the servers they see.
   */
  hub?: ListenHub;
  logger: Logger;
  redactor: SecretRedactor;
  /** Hears of every request received and answered, for the shutdown's drain. */
  activity: PendingRequestListener;
  /** A fresh server and transport per request, no sessions: for several instances behind a load balancer. */
  stateless: boolean;
  /** A session unused this long is closed. */
  sessionIdleTimeoutMs: number;
  /** At most this many open sessions, all tokens together. */
  maxSessions: number;
  /** At most this many open sessions per token (anonymous callers share one count). */
  maxSessionsPerToken: number;
  /** Open 2026-07-28 `subscriptions/listen` streams at most, all tokens together. Default `maxSessions`. */
  maxListenStreams?: number;
  /** Open listen streams at most per token. Default `maxSessionsPerToken`. */
  maxListenStreamsPerToken?: number;
  /** Whether the hot 2026-07-28 requests go to connected instances (`ModernMcpLegOptions.connectedCalls`). */
  connectedModernCalls?: boolean;
  /**
   * Where the 2025 sessions' records go, so another replica can resume a session (apps/http-server/README.md,
   * "Replicas"). Default: an in-process store (one replica).
   */
  clusterStore?: ClusterStore;
  /** A session record's expiry is moved at most this often per session. Default a quarter of the idle timeout, at most 1 minute. */
  sessionRecordRefreshMs?: number;
}

export interface McpEndpoint {
  /** Open 2025 sessions. */
  readonly sessionCount: number;
  /** 2026-07-28 requests served since start. */
  readonly modernRequestCount: number;
  /** Open 2026-07-28 `subscriptions/listen` streams. */
  readonly listenStreamCount: number;
  /**
   * At shutdown: ends the 2026-07-28 listen streams (gracefully) and the 2026 exchanges still running, answers every
   * request still waiting in any session with `error`, then closes every session.
   */
  closeAll(error?: { code: number; message: string }): Promise<void>;
}

const anonymous = '\u0000anonymous';

/**
 * `POST|GET|DELETE /mcp`: the Streamable HTTP MCP endpoint with the surface of the stdio app. Every session has its
 * own SDK `Server`, all of them over the runtime's one client manager: backends are never spawned per session. A
 * session is bound to the token that opened it; another token cannot use it. Sessions are shared fairly between
 * tokens (`SessionPool`). A session's record in the cluster store lets any replica resume it (`SharedSessions`).
 */
export function registerMcpEndpoint(app: FastifyInstance, options: McpEndpointOptions): McpEndpoint {
  const { logger } = options;
  const pool = new SessionPool<Session>({
    maxSessions: options.maxSessions,
    maxSessionsPerPrincipal: options.maxSessionsPerToken,
  });
  /** Stateless requests being answered, so a shutdown can answer them too. */
  const statelessTransports = new Set<TrackedTransport>();

  const resolveCaller =
    (base: Caller) =>
    ({ meta }: { meta: Record<string, unknown> | undefined }): Caller => {
      const projectId = typeof meta?.projectId === 'string' ? meta.projectId : base.projectId;
      // Who the caller is (token, subject, access) is the hook's; only the project may differ per message.
      const { projectId: _opened, ...identity } = base;
      return { ...identity, ...(projectId !== undefined ? { projectId } : {}) };
    };

  // The session's project is the one named when it opened: its instructions list that project's servers.
  const overridesFor = (caller: Caller, stateless = false): McpServerOverrides => ({
    resolveCaller: resolveCaller(caller),
    ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
    ...(caller.access ? { access: caller.access } : {}),
    ...(stateless ? { stateless: true } : {}),
  });
  const newServer = (caller: Caller, stateless = false) => options.createServer(overridesFor(caller, stateless));
  // 2026-07-28 requests stand alone (no stream outside the request): served like stateless 2025 requests.
  const listen =
    options.serverFactory && options.hub
      ? createListenStreams({
          hub: options.hub,
          serverFactory: options.serverFactory,
          overridesFor: (caller) => overridesFor(caller, true),
          redactor: options.redactor,
          logger,
          maxStreams: options.maxListenStreams ?? options.maxSessions,
          maxStreamsPerToken: options.maxListenStreamsPerToken ?? options.maxSessionsPerToken,
        })
      : undefined;
  const modern = options.serverFactory
    ? createModernMcpLeg({
        serverFactory: options.serverFactory,
        overridesFor: (caller) => overridesFor(caller, true),
        redactor: options.redactor,
        activity: options.activity,
        ...(listen ? { listen } : {}),
        ...(options.connectedModernCalls !== undefined ? { connectedCalls: options.connectedModernCalls } : {}),
      })
    : undefined;

  const endSession = async (transport: TrackedTransport, server: Server) => {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  };

  const shared = new SharedSessions({
    store: options.clusterStore ?? createMemoryClusterStore(),
    ttlMs: options.sessionIdleTimeoutMs,
    refreshEveryMs: options.sessionRecordRefreshMs ?? Math.min(60_000, options.sessionIdleTimeoutMs / 4),
    logger,
    onEndedElsewhere: (id) => void closeSession(id, 'ended by another replica', 'kept'),
    onChangedElsewhere: (id, record) => {
      const session = pool.get(id);
      if (session) applyChangeFromElsewhere(id, session, record, logger);
    },
  });

  const closeSession = async (id: string, reason: string, end: SessionEnd) => {
    const session = pool.get(id);
    if (!session) return;
    pool.delete(id);
    logger.debug('closing MCP session', { session: id, reason });
    await Promise.all([endSession(session.transport, session.server), shared.ended(id, session, end)]);
  };

  const endEvicted = (evicted: ReadonlyArray<{ id: string; session: Session }>) => {
    for (const { id, session } of evicted) {
      logger.info('closing an idle MCP session to make room for a new one', { session: id, token: session.tokenId });
      void endSession(session.transport, session.server);
      void shared.ended(id, session, 'idle');
    }
  };

  /**
   * A session's server and transport, connected (not in the pool yet). `sessionId`: the id to open under (a session
   * resumed from another replica); else a new one is minted.
   */
  const openSession = async (
    caller: Caller,
    sessionId: string | undefined,
    onInitialized?: (session: Session, id: string) => Promise<void>,
  ): Promise<Session> => {
    const server = newServer(caller);
    // Resumable streams (SEP-1699): with a store, the SDK opens each POST stream of a 2025-11-25 client with a priming
    // event and `retry`, and replays what a broken-off stream missed to a GET with `Last-Event-ID`.
    const events = new SessionEventStore();
    const transport: TrackedTransport = new TrackedTransport(
      createNodeSessionTransport({
        sessionIdGenerator: () => sessionId ?? randomUUID(),
        eventStore: events,
        retryInterval: sseRetryIntervalMs,
        ...(onInitialized ? { onsessioninitialized: (id: string) => onInitialized(session, id) } : {}),
        // The record is gone (and the other replicas told) before the client hears its DELETE succeeded.
        onsessionclosed: (id: string) => shared.ended(id, session, 'closed'),
      }),
      options.redactor,
      options.activity,
    );
    const session: Session = {
      transport,
      server,
      events,
      tokenId: caller.tokenId,
      principal: caller.tokenId ?? anonymous,
      lastSeen: Date.now(),
      sharedAt: 0,
      isIdle: () => transport.pendingRequests === 0,
    };
    transport.onclose = () => {
      if (transport.sessionId) void closeSession(transport.sessionId, 'closed', 'closed');
    };
    transport.onanswer = async (requestId, succeeded) => {
      if (transport.sessionId) await shared.answered(transport.sessionId, session, requestId, succeeded);
    };
    await server.connect(transport);
    return session;
  };

  const rebuild = createSessionRebuilder({
    pool,
    open: (caller, id) => openSession(caller, id),
    end: (session) => endSession(session.transport, session.server),
    evicted: endEvicted,
    logger,
  });

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of pool.entries()) {
        if (now - session.lastSeen > options.sessionIdleTimeoutMs) void closeSession(id, 'idle', 'idle');
      }
    },
    Math.max(1000, Math.min(60_000, options.sessionIdleTimeoutMs / 4)),
  );
  sweep.unref();

  // A POST whose stream ended with every response written needs no resuming: its events are dropped then.
  const forgetWhenDelivered = (reply: FastifyReply, events: SessionEventStore, body: unknown) => {
    const ids = requestIdsOf(body);
    if (ids.length > 0) reply.raw.once('finish', () => events.delivered(ids));
  };

  const jsonRpcError = (reply: FastifyReply, status: number, code: number, message: string) =>
    reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
  const refuse = (reply: FastifyReply, message: string) =>
    reply
      .header('retry-after', '30')
      .code(503)
      .send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

  const handleStateless = async (request: FastifyRequest, reply: FastifyReply, caller: Caller) => {
    const server = newServer(caller, true);
    const transport = new TrackedTransport(
      createNodeSessionTransport({ sessionIdGenerator: undefined }),
      options.redactor,
      options.activity,
    );
    statelessTransports.add(transport);
    reply.hijack();
    reply.raw.on('close', () => {
      statelessTransports.delete(transport);
      void endSession(transport, server);
    });
    await server.connect(transport);
    await transport.inner.handleRequest(request.raw, reply.raw, request.body);
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = callerOf(request);
    if (modern?.accepts(request)) return modern.serve(request, reply, caller);
    if (options.stateless) return handleStateless(request, reply, caller);

    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    if (sessionId !== undefined) {
      let session = pool.get(sessionId);
      if (!session && request.method === 'DELETE') {
        // Not held here: its record goes (the replica holding it hears), without rebuilding it just to end it.
        if (await shared.endNotHeld(sessionId, caller.tokenId ?? anonymous)) return reply.code(200).send();
        return jsonRpcError(reply, 404, -32001, 'Session not found');
      }
      if (!session) {
        const resumption = await shared.resume(sessionId, caller, caller.tokenId ?? anonymous, rebuild);
        if (!resumption.resumed && resumption.refusal !== undefined) return refuse(reply, resumption.refusal);
        if (resumption.resumed) session = resumption.session;
      }
      if (!session || session.tokenId !== caller.tokenId) return jsonRpcError(reply, 404, -32001, 'Session not found');
      session.lastSeen = Date.now();
      shared.used(sessionId, session, request.method === 'POST' ? request.body : undefined);
      if (session.resumed) await forgetUnknownLastEventId(request, session.events);
      reply.hijack();
      if (request.method === 'POST') forgetWhenDelivered(reply, session.events, request.body);
      await session.transport.inner.handleRequest(request.raw, reply.raw, request.body);
      return;
    }

    if (request.method !== 'POST' || !isInitializeRequest(request.body)) {
      return jsonRpcError(reply, 400, -32000, 'Bad Request: send an initialize request without Mcp-Session-Id first');
    }
    const admission = pool.admit(caller.tokenId ?? anonymous);
    if (!admission.admitted) return refuse(reply, admission.message);
    const { slot } = admission;
    endEvicted(slot.evicted);
    const { params } = request.body;
    const { transport, server, events } = await openSession(caller, undefined, async (session, id) => {
      slot.commit(id, session);
      // Written before the client learns the id, so its next request finds the record on any replica.
      await shared.opened(id, session, {
        principal: session.principal,
        ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
        initialize: params as Record<string, unknown>,
        replica: shared.replicaId,
      });
    });
    reply.hijack();
    forgetWhenDelivered(reply, events, request.body);
    try {
      await transport.inner.handleRequest(request.raw, reply.raw, request.body);
    } finally {
      // An initialize the transport refused (wrong Accept, bad version) opened no session: free its slot and server
      // now, or they and its listener on the shared manager would stay forever.
      if (transport.sessionId === undefined) {
        slot.release();
        await endSession(transport, server);
      }
    }
  };

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    schema: {
      summary: 'Streamable HTTP MCP endpoint (POST messages, GET the event stream, DELETE to end a session)',
      description: 'The MCP surface of the stdio app (see the README), JSON-RPC over Streamable HTTP.',
    },
    handler: handle,
  });

  return {
    get sessionCount() {
      return pool.size;
    },
    get modernRequestCount() {
      return modern?.requestCount ?? 0;
    },
    get listenStreamCount() {
      return listen?.openCount ?? 0;
    },
    closeAll: async (error) => {
      clearInterval(sweep);
      await modern?.close(error);
      const sessions = pool.ids().flatMap((id) => {
        const session = pool.get(id);
        return session ? [session.transport] : [];
      });
      if (error) {
        await Promise.all([...sessions, ...statelessTransports].map((transport) => transport.answerPending(error)));
      }
      // The records stay: the sessions go on at another replica (apps/http-server/README.md, "Replicas").
      await Promise.all(pool.ids().map((id) => closeSession(id, 'shutdown', 'kept')));
      shared.close();
    },
  };
}
