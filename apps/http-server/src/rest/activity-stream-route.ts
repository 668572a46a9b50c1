import type { SecretRedactor } from '@search-mcp/shared';
import type { FastifyInstance } from 'fastify';
import { assertAdmin } from '../access/admin-access.js';
import { errorResponses } from '../openapi/documented-responses.js';
import type { ZodFastifyInstance } from './rest-route-context.js';

/** The events of the live stream (docs/console.md): a call, a server's new status, a reload. */
export type ActivityStreamEvent = 'call' | 'server' | 'reload';

export interface ActivityStreamContext {
  /** Hears every event of the stream; the function returned stops it. */
  subscribe(send: (event: ActivityStreamEvent, data: unknown) => void): () => void;
  redactor: SecretRedactor;
  /** A comment line this often keeps proxies from closing a quiet stream. Default 15 s. */
  pingIntervalMs?: number;
  /** A client whose unsent data passes this is dropped (it reconnects): a slow reader cannot grow memory. 1 MiB. */
  maxBufferedBytes?: number;
}

const defaultPingIntervalMs = 15_000;
const defaultMaxBufferedBytes = 1024 * 1024;
/** setTimeout's longest delay (about 24.8 days); a token valid longer is cut then, and the client reconnects. */
const maxTimerMs = 2 ** 31 - 1;

/**
 * `GET /v1/activity/stream` (admin): Server-Sent Events over the raw reply, `event: call` (an `ActivityRecord`),
 * `event: server` (a server's status), `event: reload` (a `ConsoleEvent`), and `: ping` every 15 s. Every stream
 * ends when the app closes, so it never holds a shutdown, and an OAuth caller's when its token expires; each event's
 * data passes the redactor value by value, as every REST body passes it.
 */
export function registerActivityStreamRoute(app: ZodFastifyInstance, context: ActivityStreamContext): void {
  const open = new Set<() => void>();
  const pingIntervalMs = context.pingIntervalMs ?? defaultPingIntervalMs;
  const maxBufferedBytes = context.maxBufferedBytes ?? defaultMaxBufferedBytes;
  (app as unknown as FastifyInstance).addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
  app.get(
    '/v1/activity/stream',
    {
      schema: {
        summary: 'Live calls, server states and reloads as Server-Sent Events (admin)',
        description: 'text/event-stream: `event: call|server|reload`, `data:` one JSON object; `: ping` every 15 s.',
        response: errorResponses(),
      },
    },
    async (request, reply) => {
      assertAdmin(request, 'The activity stream');
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write(': connected\n\n');
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(ping);
        open.delete(end);
        raw.end();
      };
      const write = (text: string) => {
        if (ended) return;
        if (raw.writableLength > maxBufferedBytes) {
          // A client that does not read: drop it rather than queue for it without bound.
          ended = true;
          unsubscribe();
          clearInterval(ping);
          open.delete(end);
          raw.destroy();
          return;
        }
        raw.write(text);
      };
      // Structurally, value by value (as the console's activity log is): a secret with a quote or a backslash is
      // escaped in the JSON text, where a text-wide pass would no longer find it.
      const unsubscribe = context.subscribe((event, data) =>
        write(`event: ${event}\ndata: ${JSON.stringify(context.redactor.redactDeep(data))}\n\n`),
      );
      const ping = setInterval(() => write(': ping\n\n'), pingIntervalMs);
      ping.unref();
      open.add(end);
      raw.on('close', end);
      // Admin was checked at connect: an OAuth caller's stream ends when its token does (the client reconnects with a
      // fresh one, checked again). A static token has no end.
      const expiresAt = request.oauthCaller?.expiresAt;
      if (expiresAt !== undefined) {
        const expiry = setTimeout(end, Math.min(Math.max(expiresAt * 1000 - Date.now(), 0), maxTimerMs));
        expiry.unref();
        raw.on('close', () => clearTimeout(expiry));
      }
    },
  );
}
