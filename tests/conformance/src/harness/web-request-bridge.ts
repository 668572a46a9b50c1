import type { IncomingMessage, ServerResponse } from 'node:http';

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
