import type { AuditRecord } from '@search-mcp/runtime';
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
});
