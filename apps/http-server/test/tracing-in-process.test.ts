/**
 * The spans of the libraries (docs/console.md, "Telemetry") seen in process: an SDK registered by the test
 * (`NodeTracerProvider`, an in-memory exporter) over the real app and client manager, with the fixture backend that
 * answers the `_meta` its `tools/call` carried. First without any SDK: nothing is injected.
 */
import { fileURLToPath } from 'node:url';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, request, type Running, startApp } from './http-test-support.js';

const recorder = fileURLToPath(new URL('./fixtures/meta-recorder-server.mjs', import.meta.url));
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let server: Running;

beforeAll(async () => {
  server = await startApp({
    backends: 'none',
    config: { mcpServers: { legacy: { command: process.execPath, args: [recorder, '--legacy'] } } },
  });
});

afterAll(async () => {
  await server.close();
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

function metaOf(result: unknown): Record<string, unknown> {
  const text = (result as { content: Array<{ text: string }> }).content[0]?.text ?? '{}';
  return JSON.parse(text) as Record<string, unknown>;
}

describe('tracing in process', () => {
  it('adds nothing to a backend call without an SDK registered', async () => {
    const response = await request(server.url, '/v1/tools/call', { body: { name: 'legacy:meta' } });
    expect(response.status).toBe(200);
    expect(metaOf(response.body?.result)).not.toHaveProperty('traceparent');
  });

  it('makes a CLIENT span per backend call, child of the current span, and sends its traceparent', async () => {
    provider.register();
    exporter.reset();
    const tracer = trace.getTracer('test');
    const { result, caller } = await tracer.startActiveSpan('caller', async (span) => {
      try {
        return { result: await server.runtime.manager.callTool('legacy', 'meta'), caller: span.spanContext() };
      } finally {
        span.end();
      }
    });
    const backendCall = exporter.getFinishedSpans().find((span) => span.name === 'tools/call meta');
    expect(backendCall?.kind).toBe(SpanKind.CLIENT);
    expect(backendCall?.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(backendCall?.spanContext().traceId).toBe(caller.traceId);
    expect(backendCall?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'meta',
      'search_mcp.server.id': 'legacy',
    });
    expect(metaOf(result).traceparent).toBe(`00-${caller.traceId}-${backendCall?.spanContext().spanId}-01`);
  });

  it('marks a failed backend call with an error status', async () => {
    exporter.reset();
    await expect(server.runtime.manager.callTool('legacy', 'no-such-tool')).rejects.toThrow();
    const failed = exporter.getFinishedSpans().find((span) => span.name === 'tools/call no-such-tool');
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed?.attributes['error.type']).toBeDefined();
    // The type only: an error's message may carry what a backend echoed (a secret), and spans leave the process.
    expect(failed?.status.message).toBeUndefined();
  });

  it("drops the caller's traceparent and tracestate from _meta before adding ours (no stale tracestate)", async () => {
    exporter.reset();
    const tracer = trace.getTracer('test');
    const result = await tracer.startActiveSpan('caller', async (span) => {
      try {
        return await server.runtime.manager.callTool(
          'legacy',
          'meta',
          {},
          {
            meta: {
              traceparent: '00-11111111111111111111111111111111-2222222222222222-01',
              tracestate: 'stale=1',
              kept: 'yes',
            },
          },
        );
      } finally {
        span.end();
      }
    });
    const backendCall = exporter.getFinishedSpans().find((span) => span.name === 'tools/call meta');
    const meta = metaOf(result);
    expect(meta.traceparent).toBe(`00-${backendCall?.spanContext().traceId}-${backendCall?.spanContext().spanId}-01`);
    expect(meta).not.toHaveProperty('tracestate');
    expect(meta.kept).toBe('yes');
  });

  it("carries a client's unsampled traceparent on to the backend (the request's span records nothing)", async () => {
    exporter.reset();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const { client } = await mcpClient(server.url);
    let result: unknown;
    try {
      result = await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'legacy:meta' },
        _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-00` },
      });
    } finally {
      await client.close();
    }
    // Not sampled by the caller: no span recorded, and the backend's traceparent is in the caller's trace, unsampled.
    expect(exporter.getFinishedSpans().filter((span) => span.name.startsWith('tools/call'))).toEqual([]);
    expect(String(metaOf(result).traceparent)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
  });

  it("parents the request's span on a client's params._meta.traceparent", async () => {
    exporter.reset();
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const callerSpanId = 'b7ad6b7169203331';
    const { client } = await mcpClient(server.url);
    try {
      await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'legacy:meta' },
        _meta: { traceparent: `00-${traceId}-${callerSpanId}-01` },
      });
    } finally {
      await client.close();
    }
    const execute = exporter.getFinishedSpans().find((span) => span.name === 'tools/call tool_execute');
    expect(execute?.kind).toBe(SpanKind.SERVER);
    expect(execute?.spanContext().traceId).toBe(traceId);
    expect(execute?.parentSpanContext?.spanId).toBe(callerSpanId);
  });
});
