import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';

/** An MCP endpoint on 127.0.0.1 (ephemeral port) as the suite expects one: `/mcp` and nothing else. */
export interface LoopbackMcpEndpoint {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves `/mcp` on 127.0.0.1: Host and Origin checked as a local server must (DNS rebinding), any other path 404,
 * then a 2025 request (no 2026-07-28 envelope) to `legacy` and anything else to `modern`.
 */
export async function listenOnLoopback(routes: {
  legacy: (request: Request) => Promise<Response>;
  modern: (request: Request) => Promise<Response>;
}): Promise<LoopbackMcpEndpoint> {
  const handle = async (request: Request): Promise<Response> => {
    const rejected =
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
      originValidationResponse(request, localhostAllowedOrigins());
    if (rejected) return rejected;
    if (new URL(request.url).pathname !== '/mcp') return new Response('Not Found', { status: 404 });
    return (await isLegacyRequest(request)) ? routes.legacy(request) : routes.modern(request);
  };
  let origin = '';
  const server = createServer((incoming, reply) => {
    void serveWebRequest(incoming, reply, origin, handle);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: new URL('/mcp', origin),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Node's request as a web `Request`, the handler's `Response` streamed back; the client going away aborts it. */
export async function serveWebRequest(
  incoming: IncomingMessage,
  reply: ServerResponse,
  origin: string,
  handle: (request: Request) => Promise<Response>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const gone = new AbortController();
  reply.on('close', () => {
    if (!reply.writableFinished) gone.abort(new Error('the client closed the response'));
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
  try {
    const response = await handle(
      new Request(new URL(incoming.url ?? '/', origin), {
        method: incoming.method ?? 'GET',
        headers,
        signal: gone.signal,
        ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
      }),
    );
    reply.writeHead(response.status, [...response.headers].flat());
    reply.flushHeaders();
    if (response.body) {
      for await (const chunk of response.body) {
        if (reply.destroyed) break;
        reply.write(chunk);
      }
    }
    reply.end();
  } catch (error) {
    if (!reply.headersSent) reply.writeHead(500, { 'content-type': 'text/plain' });
    reply.end(String(error));
  }
}
