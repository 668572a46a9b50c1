/**
 * OpenTelemetry traces from the built `search-mcp-http` (docs/console.md, "Telemetry"): started with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a local OTLP/HTTP receiver, over two fixture backends (a 2026-07-28 one
 * and a 2025 one) that answer the `_meta` their `tools/call` carried.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.js';
import { mcpClient, temporaryDirectory } from './http-test-support.js';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';

const recorder = fileURLToPath(new URL('./fixtures/meta-recorder-server.mjs', import.meta.url));
const token = 'tracing-token-0123456789abcdefghij';
const stepTimeoutMs = 60_000;
/** OTLP's `Span.SpanKind` numbers (one more than the API's `SpanKind`). */
const otlpKind = { server: 2, client: 3 };
let directory: { path: string; remove: () => Promise<void> };
let receiver: OtlpReceiver;
let app: CliProcess;

beforeAll(async () => {
  directory = await temporaryDirectory();
  receiver = await startOtlpReceiver();
  const configFile = join(directory.path, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: {
        modern: { command: process.execPath, args: [recorder] },
        legacy: { command: process.execPath, args: [recorder, '--legacy'] },
      },
      auth: { tokens: [{ id: 'main', token }] },
    }),
  );
  app = await startCli(['--config', configFile, '--port', '0', '--mode', 'meta'], {
    ...process.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    // Batches go out at once rather than every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '20',
  });
}, stepTimeoutMs);

afterAll(async () => {
  app?.child.kill('SIGTERM');
  await app?.exited;
  await receiver?.close();
  await directory?.remove();
});

function textOf(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0] as { text: string }).text;
}

describe('search-mcp-http with an OTLP endpoint', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`parents the spans on the caller's traceparent and carries it into the ${era} backend's _meta`, {
      timeout: stepTimeoutMs,
    }, async () => {
      const traceId = randomBytes(16).toString('hex');
      const callerSpanId = randomBytes(8).toString('hex');
      const { client } = await mcpClient(app.url, {
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      });
      try {
        const result = await client.callTool({ name: 'tool_execute', arguments: { toolKey: `${era}:meta` } });
        expect(result.isError).not.toBe(true);
        const meta = JSON.parse(textOf(result)) as { traceparent?: string };
        const carried = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(meta.traceparent ?? '');
        expect(carried?.[1], meta.traceparent).toBe(traceId);

        const execute = await receiver.waitForSpan(
          (span) => span.traceId === traceId && span.name === 'tools/call tool_execute',
        );
        expect(execute).toMatchObject({
          parentSpanId: callerSpanId,
          kind: otlpKind.server,
          service: 'search-mcp-http',
          attributes: {
            'mcp.method.name': 'tools/call',
            'gen_ai.tool.name': 'tool_execute',
            'search_mcp.tool.key': `${era}:meta`,
          },
        });
        const backendCall = await receiver.waitForSpan(
          (span) => span.traceId === traceId && span.name === 'tools/call meta',
        );
        expect(backendCall).toMatchObject({
          parentSpanId: execute.spanId,
          kind: otlpKind.client,
          attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'meta', 'search_mcp.server.id': era },
        });
        // The backend was told the backend-call span is its parent.
        expect(carried?.[2]).toBe(backendCall.spanId);
      } finally {
        await client.close();
      }
    });
  }

  it('starts a trace of its own for a discovery without a traceparent', { timeout: stepTimeoutMs }, async () => {
    const { client } = await mcpClient(app.url, { authorization: `Bearer ${token}` });
    try {
      const query = `answer the meta ${randomBytes(4).toString('hex')}`;
      await client.callTool({ name: 'tool_discovery', arguments: { query } });
      const discovery = await receiver.waitForSpan(
        (span) => span.name === 'tools/call tool_discovery' && span.parentSpanId === undefined,
      );
      expect(discovery).toMatchObject({ kind: otlpKind.server, attributes: { 'search_mcp.event': 'tool_discovery' } });
    } finally {
      await client.close();
    }
  });

  it('sends the spans still batched when it shuts down', { timeout: stepTimeoutMs }, async () => {
    const configFile = join(directory.path, 'config.json');
    // A batch delay longer than the test: only the shutdown's flush can send this span.
    const second = await startCli(['--config', configFile, '--port', '0', '--mode', 'meta'], {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      OTEL_SERVICE_NAME: 'search-mcp-flush-test',
    });
    const { client } = await mcpClient(second.url, { authorization: `Bearer ${token}` });
    await client.callTool({ name: 'tool_discovery', arguments: { query: 'meta' } });
    await client.close();
    expect(receiver.spans.some((span) => span.service === 'search-mcp-flush-test')).toBe(false);
    second.child.kill('SIGTERM');
    expect((await second.exited)[0]).toBe(0);
    expect(receiver.spans.some((span) => span.service === 'search-mcp-flush-test')).toBe(true);
  });
});
