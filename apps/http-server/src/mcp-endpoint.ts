import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '@search-mcp/catalog';
import type { SearchMcpRuntime } from '@search-mcp/meta-tools';
import type { Logger } from '@search-mcp/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface McpEndpointOptions {
  runtime: SearchMcpRuntime;
  logger: Logger;
  /** A fresh server and transport per request, no sessions: for several instances behind a load balancer. */
  stateless: boolean;
  /** A session unused this long is closed. */
  sessionIdleTimeoutMs: number;
  /** At most this many open sessions; an initialize past it gets 503. */
  maxSessions: number;
  /** Who the request is from (token, header project), set by the authentication hook. */
  callerOf: (request: FastifyRequest) => Caller;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  tokenId: string | undefined;
  lastSeen: number;
}

export interface McpEndpoint {
  readonly sessionCount: number;
  closeAll(): Promise<void>;
}

/**
 * `POST|GET|DELETE /mcp`: the Streamable HTTP MCP endpoint with the surface of the stdio app. Every session has its
 * own SDK `Server`, all of them over the runtime's one client manager: backends are never spawned per session. A
 * session is bound to the token that opened it; another token cannot use it.
 */
export function registerMcpEndpoint(app: FastifyInstance, options: McpEndpointOptions): McpEndpoint {
  const sessions = new Map<string, Session>();
  const { runtime, logger } = options;

  const resolveCaller =
    (base: Caller) =>
    ({ meta }: { meta: Record<string, unknown> | undefined }): Caller => {
      const projectId = typeof meta?.projectId === 'string' ? meta.projectId : base.projectId;
      return {
        ...(base.tokenId !== undefined ? { tokenId: base.tokenId } : {}),
        ...(projectId !== undefined ? { projectId } : {}),
      };
    };

  const closeSession = async (id: string, reason: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    logger.debug('closing MCP session', { session: id, reason });
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen > options.sessionIdleTimeoutMs) void closeSession(id, 'idle');
      }
    },
    Math.max(1000, Math.min(60_000, options.sessionIdleTimeoutMs / 4)),
  );
  sweep.unref();

  const jsonRpcError = (reply: FastifyReply, status: number, code: number, message: string) =>
    reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = options.callerOf(request);

    if (options.stateless) {
      const server = runtime.createServer({
        resolveCaller: resolveCaller(caller),
        ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close().catch(() => {});
        void server.close().catch(() => {});
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
      return;
    }

    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session || session.tokenId !== caller.tokenId) return jsonRpcError(reply, 404, -32001, 'Session not found');
      session.lastSeen = Date.now();
      reply.hijack();
      await session.transport.handleRequest(request.raw, reply.raw, request.body);
      return;
    }

    if (request.method !== 'POST' || !isInitializeRequest(request.body)) {
      return jsonRpcError(reply, 400, -32000, 'Bad Request: send an initialize request without Mcp-Session-Id first');
    }
    if (sessions.size >= options.maxSessions) {
      return reply
        .code(503)
        .header('retry-after', '30')
        .send({
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: `Too many open sessions (${options.maxSessions}); close one or try again later`,
          },
          id: null,
        });
    }
    // The session's project is the one named when it opened: its instructions list that project's servers.
    const server = runtime.createServer({
      resolveCaller: resolveCaller(caller),
      ...(caller.projectId !== undefined ? { projectId: caller.projectId } : {}),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, tokenId: caller.tokenId, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) void closeSession(transport.sessionId, 'closed');
    };
    await server.connect(transport);
    reply.hijack();
    try {
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } finally {
      // An initialize the transport refused (wrong Accept, bad version) opened no session: free its server now, or
      // it and its listener on the shared manager would stay forever.
      if (transport.sessionId === undefined) {
        await transport.close().catch(() => {});
        await server.close().catch(() => {});
      }
    }
  };

  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp', handler: handle });

  return {
    get sessionCount() {
      return sessions.size;
    },
    closeAll: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map((id) => closeSession(id, 'shutdown')));
    },
  };
}
