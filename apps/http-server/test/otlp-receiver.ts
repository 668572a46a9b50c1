/**
 * A local OTLP/HTTP trace receiver for the tracing tests: it speaks the documented wire format's JSON encoding
 * (`POST /v1/traces` with an `ExportTraceServiceRequest`, answered `200 {}`), which `@opentelemetry/exporter-trace-otlp-http`
 * sends, and keeps every span it was sent.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  /** The `service.name` of the resource that sent it. */
  service: string;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter adds `/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  /** Resolves with the first span `matches` accepts, now or when it arrives. */
  waitForSpan(matches: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) attributes[key] = Object.values(value)[0];
  return attributes;
}

/** OTLP/JSON ids are hex strings; a base64 one (the protobuf JSON mapping) is converted. */
function hexId(id: unknown): string | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, reply) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        reply.writeHead(404).end();
        return;
      }
      if (!String(request.headers['content-type']).startsWith('application/json')) {
        reply.writeHead(415, { 'content-type': 'application/json' }).end('{"message":"JSON only"}');
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(
        (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'),
      ) as {
        resourceSpans?: Array<{
          resource?: { attributes?: OtlpAttribute[] };
          scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
        }>;
      };
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const parentSpanId = hexId(span.parentSpanId);
            spans.push({
              traceId: hexId(span.traceId) ?? '',
              spanId: hexId(span.spanId) ?? '',
              ...(parentSpanId ? { parentSpanId } : {}),
              name: String(span.name),
              kind: Number(span.kind),
              attributes: attributesOf(span.attributes as OtlpAttribute[] | undefined),
              ...(span.status ? { status: span.status as ReceivedSpan['status'] } : {}),
              service,
            });
          }
        }
      }
      reply.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const waiter of waiters) waiter();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    waitForSpan: (matches) =>
      new Promise((resolve) => {
        const check = () => {
          const found = spans.find(matches);
          if (!found) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
