import type { AuditRecord } from '@search-mcp/runtime';
import type { ServerStatus } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { maxToolLabelValues, PrometheusMetrics } from './prometheus-metrics.js';

function call(toolKey: string, outcome: AuditRecord['outcome'] = 'ok'): AuditRecord {
  return { ts: new Date().toISOString(), requestId: '1', event: 'rest', toolKey, durationMs: 12, outcome };
}

describe('PrometheusMetrics', () => {
  it('keeps the tool label bounded: tools past the cap are counted as (other)', async () => {
    const metrics = new PrometheusMetrics({ sessions: () => 0 });
    for (let index = 0; index < maxToolLabelValues + 50; index += 1) metrics.observe(call(`srv:tool-${index}`));
    metrics.observe(call('srv:tool-0'));
    const text = await metrics.registry.metrics();
    const series = text.split('\n').filter((line) => line.startsWith('search_mcp_tool_calls_total{'));
    expect(series).toHaveLength(maxToolLabelValues + 1);
    expect(series).toContain('search_mcp_tool_calls_total{server="srv",tool="(other)",outcome="ok"} 50');
    expect(series).toContain('search_mcp_tool_calls_total{server="srv",tool="tool-0",outcome="ok"} 2');
  });

  it('counts an input_required answer nowhere (its retry is audited as its own call), and searches by outcome', async () => {
    const metrics = new PrometheusMetrics({ sessions: () => 3 });
    metrics.observe(call('srv:ask', 'input_required'));
    metrics.observe({ ...call('x'), event: 'tool_discovery', toolKey: undefined, queries: ['q'], resultCount: 0 });
    const text = await metrics.registry.metrics();
    expect(text).not.toContain('search_mcp_tool_calls_total{');
    expect(text).toContain('search_mcp_searches_total{outcome="no_results"} 1');
    expect(text).toContain('search_mcp_sessions 3');
  });

  it('reads backend states and restarts at each scrape: a removed server disappears', async () => {
    let statuses: ServerStatus[] = [
      { id: 'a', state: 'running', toolCount: 1, restarts: 0 },
      { id: 'b', state: 'crashed', toolCount: 0, restarts: 3 },
    ];
    const metrics = new PrometheusMetrics({ sessions: () => 0, servers: () => statuses });
    let text = await metrics.registry.metrics();
    expect(text).toContain('search_mcp_backend_state{server="a",state="running"} 1');
    expect(text).toContain('search_mcp_backend_state{server="a",state="crashed"} 0');
    expect(text).toContain('search_mcp_backend_state{server="b",state="crashed"} 1');
    expect(text).toContain('search_mcp_backend_restarts_total{server="a"} 0');
    expect(text).toContain('search_mcp_backend_restarts_total{server="b"} 3');
    statuses = [{ id: 'a', state: 'stopped', toolCount: 0, restarts: 0 }];
    text = await metrics.registry.metrics();
    expect(text).toContain('search_mcp_backend_state{server="a",state="stopped"} 1');
    expect(text).not.toContain('server="b"');
  });

  it('counts no call to a tool that does not exist, and drops the series of a server no longer configured', async () => {
    let statuses: ServerStatus[] = [
      { id: 'a', state: 'running', toolCount: 1, restarts: 0 },
      { id: 'b', state: 'running', toolCount: 1, restarts: 0 },
    ];
    const metrics = new PrometheusMetrics({ sessions: () => 0, servers: () => statuses });
    for (let index = 0; index < maxToolLabelValues + 10; index += 1) {
      metrics.observe({ ...call(`made-up-${index}:x`, 'error'), errorCode: 'TOOL_NOT_FOUND' });
      metrics.observe({ ...call(`rest-${index}:x`, 'error'), errorCode: 'HTTP_404' });
    }
    metrics.observe(call('a:one'));
    metrics.observe(call('b:two'));
    let text = await metrics.registry.metrics();
    let series = text.split('\n').filter((line) => line.startsWith('search_mcp_tool_calls_total{'));
    expect(series).toEqual([
      'search_mcp_tool_calls_total{server="a",tool="one",outcome="ok"} 1',
      'search_mcp_tool_calls_total{server="b",tool="two",outcome="ok"} 1',
    ]);
    statuses = [{ id: 'a', state: 'running', toolCount: 1, restarts: 0 }];
    text = await metrics.registry.metrics();
    series = text.split('\n').filter((line) => line.includes('server="b"'));
    expect(series).toEqual([]);
    expect(text).toContain('search_mcp_tool_call_duration_seconds_count{server="a",tool="one"} 1');
  });
});
