/**
 * `GET /metrics` (docs/console.md, "Telemetry") over a real app with server-everything and the fixture server: real
 * calls over MCP and REST, then the whole scrape parsed by a Prometheus text-format parser.
 */
import { collectConfigSecrets, createGrowingSecretRedactor, parseConfig } from '@search-mcp/shared';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alphaToken, eventually, mainToken, mcpClient, request, type Running, startApp } from './http-test-support.js';

type Families = ReturnType<typeof parsePrometheusTextFormat>;

let server: Running;

beforeAll(async () => {
  server = await startApp();
});

afterAll(async () => {
  await server.close();
});

async function scrape(): Promise<{ contentType: string | null; text: string; families: Families }> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${mainToken}` } });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { contentType: response.headers.get('content-type'), text, families: parsePrometheusTextFormat(text) };
}

function family(families: Families, name: string) {
  const found = families.find((entry) => entry.name === name);
  if (!found) throw new Error(`no metric family ${name}`);
  return found;
}

/** The value of the sample with these labels (0 when the series does not exist yet). */
function sampleValue(families: Families, name: string, labels: Record<string, string> = {}): number {
  const sample = families
    .find((entry) => entry.name === name)
    ?.metrics.find((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value));
  return Number(sample?.value ?? 0);
}

interface SampleLine {
  labels: Record<string, string>;
  value: number;
}

/**
 * The sample lines of one series name (`…_bucket`, `…_count`) read from the text itself: the parser merges the
 * series of a histogram with labels into one (its `flattenMetrics`), so per-series buckets are read here.
 */
function sampleLines(text: string, name: string): SampleLine[] {
  const lines: SampleLine[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key as string] = value as string;
    lines.push({ labels, value: Number(match[3]) });
  }
  return lines;
}

function lineValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = sampleLines(text, name).find((line) =>
    Object.entries(labels).every(([key, value]) => line.labels[key] === value),
  );
  return found?.value ?? 0;
}

describe('GET /metrics', () => {
  it('counts real calls and searches, and every family parses as Prometheus text', async () => {
    const { families: before, text: textBefore } = await scrape();
    const echo = { server: 'everything', tool: 'echo', outcome: 'ok' };
    const toolError = { server: 'fixture', tool: 'error-result', outcome: 'tool_error' };

    const { client } = await mcpClient(server.url);
    try {
      await client.callTool({ name: 'tool_discovery', arguments: { query: 'echo a message' } });
      const executed = await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'everything:echo', arguments: { message: 'over MCP' } },
      });
      expect(executed.isError).not.toBe(true);
      const rest = await request(server.url, '/v1/tools/call', {
        body: { name: 'everything:echo', parameters: { message: 'over REST' } },
      });
      expect(rest.status).toBe(200);
      expect((await request(server.url, '/v1/tools/call', { body: { name: 'fixture:error-result' } })).status).toBe(
        200,
      );
      expect((await request(server.url, '/v1/tools/search', { body: { query: 'echo' } })).status).toBe(200);

      // REST calls are audited when their answer has gone out: the scrape waits for the last of them.
      const { contentType, text, families } = await eventually(async () => {
        const scraped = await scrape();
        return sampleValue(scraped.families, 'search_mcp_searches_total') -
          sampleValue(before, 'search_mcp_searches_total') >=
          2 && sampleValue(scraped.families, 'search_mcp_tool_calls_total', toolError) >= 1
          ? scraped
          : undefined;
      });
      expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');

      // Every family parsed: each `# TYPE` line became one typed family with its help and at least one sample.
      const declared = text.split('\n').filter((line) => line.startsWith('# TYPE ')).length;
      expect(families).toHaveLength(declared);
      for (const entry of families) {
        expect(entry.type, entry.name).not.toBe('UNTYPED');
        expect(entry.help, entry.name).not.toBe('');
      }

      const delta = (name: string, labels?: Record<string, string>) =>
        sampleValue(families, name, labels) - sampleValue(before, name, labels);
      expect(delta('search_mcp_tool_calls_total', echo)).toBe(2);
      expect(delta('search_mcp_tool_calls_total', toolError)).toBe(1);
      expect(delta('search_mcp_searches_total', { outcome: 'ok' })).toBe(2);
      expect(family(families, 'search_mcp_tool_call_duration_seconds').type).toBe('HISTOGRAM');
      const countDelta = (name: string, labels?: Record<string, string>) =>
        lineValue(text, `${name}_count`, labels) - lineValue(textBefore, `${name}_count`, labels);
      expect(countDelta('search_mcp_tool_call_duration_seconds', { server: 'everything', tool: 'echo' })).toBe(2);
      expect(countDelta('search_mcp_search_duration_seconds')).toBe(2);

      // Each histogram series: buckets in rising order of `le`, cumulative, the last one +Inf holding every
      // observation (its _count).
      for (const name of ['search_mcp_tool_call_duration_seconds', 'search_mcp_search_duration_seconds']) {
        const series = new Map<string, SampleLine[]>();
        for (const bucket of sampleLines(text, `${name}_bucket`)) {
          const { le: _le, ...labels } = bucket.labels;
          const key = JSON.stringify(labels);
          series.set(key, [...(series.get(key) ?? []), bucket]);
        }
        expect(series.size, name).toBeGreaterThan(0);
        for (const [key, buckets] of series) {
          expect(buckets.at(-1)?.labels.le).toBe('+Inf');
          expect(buckets.at(-1)?.value).toBe(lineValue(text, `${name}_count`, JSON.parse(key)));
          const counts = buckets.map((bucket) => bucket.value);
          expect(counts).toEqual([...counts].sort((a, b) => a - b));
          const bounds = buckets.slice(0, -1).map((bucket) => Number(bucket.labels.le));
          expect(bounds).toEqual([...bounds].sort((a, b) => a - b));
        }
      }

      expect(sampleValue(families, 'search_mcp_backend_state', { server: 'everything', state: 'running' })).toBe(1);
      expect(sampleValue(families, 'search_mcp_backend_state', { server: 'everything', state: 'crashed' })).toBe(0);
      expect(sampleValue(families, 'search_mcp_backend_restarts_total', { server: 'fixture' })).toBe(0);
      expect(sampleValue(families, 'search_mcp_sessions')).toBeGreaterThanOrEqual(1);
      expect(
        sampleValue(families, 'search_mcp_http_requests_total', { route: '/v1/tools/call', status: '200' }) -
          sampleValue(before, 'search_mcp_http_requests_total', { route: '/v1/tools/call', status: '200' }),
      ).toBe(2);
      // prom-client's process metrics, on this app's own registry.
      expect(family(families, 'process_cpu_user_seconds_total').type).toBe('COUNTER');
    } finally {
      await client.close();
    }
  });

  it('is for admins only: no token gets 401, a token limited to projects 403', async () => {
    expect((await request(server.url, '/metrics', { token: null })).status).toBe(401);
    const limited = await request(server.url, '/metrics', { token: alphaToken });
    expect(limited.status).toBe(403);
    expect(limited.body?.code).toBe('AUTHORIZATION_ERROR');
  });
});

describe('GET /metrics with a short secret in the config', () => {
  it('is not passed through the redactor: a URL user name "user" leaves process_cpu_user_seconds_total whole', async () => {
    const mcpServers = { remote: { url: 'https://user:abc@mcp.example.com/mcp', enabled: false } };
    const redactor = createGrowingSecretRedactor(collectConfigSecrets(parseConfig({ mcpServers })));
    const app = await startApp({ backends: 'none', config: { mcpServers }, app: { redactor } });
    try {
      const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${mainToken}` } });
      const text = await response.text();
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).not.toContain('***');
      expect(parsePrometheusTextFormat(text).map((entry) => entry.name)).toContain('process_cpu_user_seconds_total');
      // Everything else still goes through it.
      expect(redactor.redact('user')).not.toBe('user');
    } finally {
      await app.close();
    }
  });
});
