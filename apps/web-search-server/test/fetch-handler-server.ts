/**
 * A `node:http` server on 127.0.0.1 in front of a fetch-shaped handler (`(Request) => Promise<Response>`, what the
 * 2.x SDK's `createMcpHandler` returns), so real HTTP clients can reach it in tests. Streams the response body as it
 * comes (SSE), and aborts the web request when the client goes away: on Streamable HTTP 2026-07-28, closing the
 * response stream is the cancellation. The era matrix reuses it for 2026 backends over HTTP.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FetchHandlerServer {
  url: URL;
  close(): Promise<void>;
}

function webRequest(request: IncomingMessage, body: Buffer, signal: AbortSignal, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(new URL(request.url ?? '/', origin), {
    method: request.method ?? 'GET',
    headers,
    signal,
    ...(hasBody ? { body } : {}),
  });
}

async function writeResponse(response: Response, reply: ServerResponse): Promise<void> {
  reply.writeHead(response.status, [...response.headers].flat());
  if (response.body) {
    for await (const chunk of response.body) {
      if (reply.destroyed) break;
      reply.write(chunk);
    }
  }
  reply.end();
}

export async function startFetchHandlerServer(
  handle: (request: Request) => Promise<Response>,
  path = '/mcp',
): Promise<FetchHandlerServer> {
  let origin = '';
  const server = createServer((request, reply) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const gone = new AbortController();
      reply.on('close', () => {
        if (!reply.writableFinished) gone.abort(new Error('the client closed the response'));
      });
      void handle(webRequest(request, Buffer.concat(chunks), gone.signal, origin))
        .then((response) => writeResponse(response, reply))
        .catch((error: unknown) => {
          if (!reply.headersSent) reply.writeHead(500, { 'content-type': 'text/plain' });
          reply.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: new URL(path, origin),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
