import { once } from 'node:events';
import type { SecretRedactor } from '@search-mcp/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Headers that describe the bytes Fastify already read; the body is re-serialised, so they would lie. */
const bodyFramingHeaders = new Set(['content-length', 'transfer-encoding', 'connection']);

/**
 * The Fastify request as a web `Request` for the SDK's fetch-shaped handler. Fastify has parsed the JSON body already
 * (its size limit and content-type checks ran); pass the same body as the handler's `parsedBody` too. `body` replaces
 * the parsed one (a listen filter narrowed to what the caller may subscribe); `null` leaves the body out (enough for
 * `isLegacyRequest` given the parsed body, which then reads nothing).
 *
 * No abort signal is attached: the SDK would abort the exchange when it fires. The client closing the connection is
 * noticed by `sendWebResponse` (it cancels the response stream: cancellation on 2026-07-28 HTTP); the normal end of a
 * response aborts nothing, so work a response handed over (a call waiting for the client's `input_required` retry)
 * goes on.
 */
export function toWebRequest(request: FastifyRequest, body: unknown = request.body): Request {
  const text = request.method === 'POST' && body !== undefined && body !== null ? JSON.stringify(body) : undefined;
  return new Request(urlOf(request), {
    method: request.method,
    headers: webHeaders(request),
    ...(text !== undefined ? { body: text } : {}),
  });
}

/**
 * The Fastify request as the SDK's `createMcpHandler` reads a request it is given the parsed body of (`parsedBody`):
 * its method, URL and headers, nothing more: no body, no abort signal (see `toWebRequest` for why none). A web
 * `Request` costs an `AbortController` and undici's bookkeeping on every 2026-07-28 call, the largest single item
 * of that leg's extra CPU against a 2025 session (`pnpm bench:http --profile`), for fields the handler never reads.
 * The guard test (`handler-request.test.ts`) serves the requests of this leg through the SDK's real handler with
 * every other field of the request refused, so an SDK that starts reading one fails there, not in production.
 */
export function toHandlerRequest(request: FastifyRequest): Request {
  const handlerRequest: HandlerRequest = { method: request.method, url: urlOf(request), headers: webHeaders(request) };
  return handlerRequest as Request;
}

/** What `toHandlerRequest` gives the handler of a web `Request`. */
type HandlerRequest = Pick<Request, 'method' | 'url' | 'headers'>;

function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || bodyFramingHeaders.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
  }
  return headers;
}

function urlOf(request: FastifyRequest): string {
  return `http://${request.headers.host ?? '127.0.0.1'}${request.url}`;
}

/**
 * Writes a web `Response` (JSON or an SSE stream) to Fastify's socket, each chunk through the secret redactor (the
 * SDK writes whole JSON-RPC messages or SSE events per chunk). The client closing the connection cancels the stream:
 * on Streamable HTTP 2026-07-28 that is how a request is cancelled, and the SDK aborts the handler.
 */
export async function sendWebResponse(
  reply: FastifyReply,
  response: Response,
  redactor: SecretRedactor,
  /** Resolves with a last message to write (an SSE response only) before the response is ended early. */
  interrupted?: Promise<unknown>,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const reader = response.body?.getReader();
  if (!reader) {
    raw.writeHead(response.status, headers);
    raw.end();
    return;
  }
  // A re-serialised, redacted body has another length: let Node frame it.
  delete headers['content-length'];
  const streaming = response.headers.get('content-type')?.includes('text/event-stream') === true;
  // An SSE stream goes out as it comes; a JSON answer is one message: written whole, with its length, in one write
  // (chunked framing and a write per chunk were most of a 2026-07-28 answer's socket time).
  if (streaming) raw.writeHead(response.status, headers);
  // A JSON answer's bytes, decoded once at the end (no `TextDecoder` made and fed for each answer).
  const chunks: Uint8Array[] = [];
  let interruptedJson: string | undefined;
  let gone = false;
  raw.once('close', () => {
    gone = true;
    reader.cancel().catch(() => {});
  });
  const decoder = streaming ? new TextDecoder() : undefined;
  const interruption = interrupted?.then((message) => ({ interrupted: message }));
  try {
    for (;;) {
      const next = await (interruption ? Promise.race([reader.read(), interruption]) : reader.read());
      if ('interrupted' in next) {
        if (streaming && !gone) raw.write(`event: message\ndata: ${JSON.stringify(next.interrupted)}\n\n`);
        // A JSON answer not complete yet is replaced by the interruption's message.
        if (!streaming) interruptedJson = JSON.stringify(next.interrupted);
        reader.cancel().catch(() => {});
        break;
      }
      const { done, value } = next;
      if (done || gone) break;
      if (!decoder) {
        chunks.push(value);
        continue;
      }
      if (!raw.write(redactor.redact(decoder.decode(value, { stream: true })))) {
        await Promise.race([once(raw, 'drain'), once(raw, 'close'), ...(interruption ? [interruption] : [])]);
      }
    }
  } catch {
    // The stream failed or was cancelled (client gone): nothing more to write.
  } finally {
    if (!gone && !streaming) {
      const body = redactor.redact(interruptedJson ?? Buffer.concat(chunks).toString('utf8'));
      raw.writeHead(response.status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
      raw.end(body);
    } else if (!gone) raw.end();
  }
}
