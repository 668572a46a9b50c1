import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A `fetch`-style handler served on 127.0.0.1 (ephemeral port). */
export interface LoopbackWebServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves a web-standard handler (`Request` in, `Response` out, as the 2.x SDK's HTTP entries take them) from
 * `node:http` on 127.0.0.1; the client going away aborts the request's signal. The OAuth fixtures and the conformance
 * suite's fixture server and relay (tests/conformance) all serve through it.
 */
export async function listenWebHandler(handle: (request: Request) => Promise<Response>): Promise<LoopbackWebServer> {
  let origin = '';
  const server = createServer((incoming, reply) => {
    void serveWebRequest(incoming, reply, origin, handle);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serveWebRequest(
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
