import { randomUUID } from 'node:crypto';
import { type AuthInfo, type McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

export interface ProtectedMcpSessions {
  /** Serves one 2025-era request that passed the bearer gate: `initialize` opens a session, else `Mcp-Session-Id`. */
  handle(request: Request, authInfo: AuthInfo): Promise<Response>;
  close(): Promise<void>;
}

const jsonRpcError = (status: number, message: string) =>
  Response.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }, { status });

/**
 * The 2025-11-25 leg of the protected server: sessionful Streamable HTTP, one server instance and transport per
 * session, as the conformance fixture serves it. The verified token goes with every request (`authInfo`), so the
 * SDK's scope challenges and the tools see the token of that request, not the one the session began with.
 */
export function createProtectedMcpSessions(createServer: () => McpServer): ProtectedMcpSessions {
  const sessions = new Map<string, { server: McpServer; transport: WebStandardStreamableHTTPServerTransport }>();
  return {
    async handle(request, authInfo) {
      const sessionId = request.headers.get('mcp-session-id');
      if (sessionId !== null) {
        const session = sessions.get(sessionId);
        if (!session) return jsonRpcError(404, 'Session not found');
        return session.transport.handleRequest(request, { authInfo });
      }
      if (request.method !== 'POST') return jsonRpcError(400, 'Bad Request: no session id');
      const server = createServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { server, transport });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      await server.connect(transport);
      const response = await transport.handleRequest(request, { authInfo });
      // A POST that opened no session (not an initialize, or a refused one) leaves nothing behind.
      if (transport.sessionId === undefined) await server.close();
      return response;
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => session.server.close()));
    },
  };
}
