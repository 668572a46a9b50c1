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

/**
 * `GET /v1/activity/stream` (admin): Server-Sent Events over the raw reply, `event: call` (an `ActivityRecord`),
 * `event: server` (a server's status), `event: reload` (a `ConsoleEvent`), and `: ping` every 15 s. Every stream
 * ends when the app closes, so it never holds a shutdown; each line passes the redactor, as every REST body does.
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
      const unsubscribe = context.subscribe((event, data) =>
        write(`event: ${event}\ndata: ${context.redactor.redact(JSON.stringify(data))}\n\n`),
      );
      const ping = setInterval(() => write(': ping\n\n'), pingIntervalMs);
      ping.unref();
      open.add(end);
      raw.on('close', end);
    },
  );
}
