import type { AuditRecord } from '@search-mcp/server';
import { describe, expect, it } from 'vitest';
import { UsageStatistics } from './usage-statistics.js';

const start = Date.parse('2026-11-20T10:30:00.000Z');

/** A clock the test moves. */
function clock(at = start) {
  const state = { at };
  return { now: () => state.at, advance: (ms: number) => (state.at += ms), state };
}

function call(at: number, fields: Partial<AuditRecord> = {}): AuditRecord {
  return {
    ts: new Date(at).toISOString(),
    requestId: String(Math.random()),
    event: 'tool_execute',
    toolKey: 'files:read',
    serverId: 'files',
    durationMs: 10,
    outcome: 'ok',
    ...fields,
  };
}

describe('UsageStatistics', () => {
  it('does not count calls to tools that do not exist: made-up keys open no series', () => {
    const usage = new UsageStatistics({ now: clock().now });
    for (let index = 0; index < 50; index += 1) {
      usage.record(
        call(start, {
          toolKey: `made-up-${index}:x`,
          serverId: `made-up-${index}`,
          outcome: 'error',
          errorCode: 'TOOL_NOT_FOUND',
        }),
      );
      usage.record(call(start, { event: 'rest', toolKey: `rest-${index}:x`, outcome: 'error', errorCode: 'HTTP_404' }));
    }
    usage.record(call(start));
    expect(usage.seriesCount).toBe(1);
    expect(usage.report({ window: '1h' }).totals).toMatchObject({ calls: 1, errors: 0 });
  });

  it('counts tool_execute, tools/call and the REST tool call; not a REST read, not input_required', () => {
    const time = clock();
    const usage = new UsageStatistics({ now: time.now });
    usage.record(call(start));
    usage.record(call(start, { event: 'tools/call', outcome: 'tool_error' }));
    usage.record(call(start, { event: 'rest', outcome: 'error', errorCode: 'HTTP_502' }));
    // GET /v1/tools/:toolKey names no tool in its audit line; a call asking for input goes on in its retry.
    usage.record({ ts: new Date(start).toISOString(), requestId: 'r', event: 'rest', durationMs: 1, outcome: 'ok' });
    usage.record(call(start, { outcome: 'input_required' }));
    // A call refused before it named a tool.
    usage.record(call(start, { toolKey: undefined, outcome: 'error' }));
    const report = usage.report({ window: '1h' });
    expect(report.totals).toMatchObject({ calls: 3, errors: 2 });
    expect(report.tools).toEqual([
      expect.objectContaining({
        toolKey: 'files:read',
        serverId: 'files',
        calls: 3,
        errors: 2,
        lastCallAt: new Date(start).toISOString(),
      }),
    ]);
    expect(report.servers).toEqual([expect.objectContaining({ serverId: 'files', calls: 3 })]);
    expect(report.persisted).toBe(false);
  });

  it('takes the server from the tool key when the record names none, and counts every key form as one tool', () => {
    const usage = new UsageStatistics({ now: clock().now });
    usage.record(call(start, { serverId: undefined, toolKey: 'github:create_issue' }));
    usage.record(call(start, { serverId: undefined, toolKey: 'github.create_issue' }));
    usage.record(call(start, { serverId: undefined, toolKey: 'github__create_issue' }));
    expect(usage.report({ window: '24h' }).tools).toHaveLength(1);
    expect(usage.report({ window: '24h' }).totals.calls).toBe(3);
    expect(usage.report({ window: '24h' }).tools[0]).toMatchObject({
      serverId: 'github',
      toolKey: 'github:create_issue',
    });
  });

  it('answers every bucket of each window, zeros included, with p50 and p95 where there were calls', () => {
    const time = clock();
    const usage = new UsageStatistics({ now: time.now });
    for (let index = 0; index < 19; index += 1) usage.record(call(start - 5 * 60_000, { durationMs: 100 }));
    usage.record(call(start - 5 * 60_000, { durationMs: 3000 }));
    usage.record(call(start - 5 * 60_000, { durationMs: 3000, outcome: 'error' }));
    usage.record(call(start - 3 * 3_600_000));
    usage.record(call(start - 3 * 86_400_000));

    const hour = usage.report({ window: '1h' });
    expect(hour.bucketMs).toBe(60_000);
    expect(hour.series).toHaveLength(60);
    expect(hour.to).toBe('2026-11-20T10:31:00.000Z');
    expect(hour.from).toBe('2026-11-20T09:31:00.000Z');
    expect(hour.series[0]?.at).toBe(hour.from);
    const busy = hour.series.filter((bucket) => bucket.calls > 0);
    expect(busy).toEqual([expect.objectContaining({ at: '2026-11-20T10:25:00.000Z', calls: 21 })]);
    expect(hour.series[0]).toEqual({ at: hour.from, calls: 0, errors: 0 });
    expect(hour.totals.calls).toBe(21);
    expect(hour.totals.p50Ms).toBeGreaterThan(88);
    expect(hour.totals.p50Ms).toBeLessThan(113);
    expect(hour.totals.p95Ms).toBeGreaterThan(2600);

    const day = usage.report({ window: '24h' });
    expect(day.bucketMs).toBe(3_600_000);
    expect(day.series).toHaveLength(24);
    expect(day.totals.calls).toBe(22);
    const week = usage.report({ window: '7d' });
    expect(week.series).toHaveLength(168);
    expect(week.totals.calls).toBe(23);
  });

  it('drops what falls out of the windows as time goes on', () => {
    const time = clock();
    const usage = new UsageStatistics({ now: time.now });
    usage.record(call(start));
    time.advance(61 * 60_000);
    expect(usage.report({ window: '1h' }).totals.calls).toBe(0);
    expect(usage.report({ window: '24h' }).totals.calls).toBe(1);
    time.advance(7 * 86_400_000);
    expect(usage.report({ window: '7d' }).totals.calls).toBe(0);
    expect(usage.report({ window: '7d' }).tools).toEqual([]);
    // Records already older than 7 days are not kept at all.
    usage.record(call(time.now() - 8 * 86_400_000));
    expect(usage.report({ window: '7d' }).totals.calls).toBe(0);
  });

  it('filters by server, tool and what the asker may see', () => {
    const usage = new UsageStatistics({ now: clock().now });
    usage.record(call(start));
    usage.record(call(start, { toolKey: 'files:write' }));
    usage.record(call(start, { serverId: 'github', toolKey: 'github:search' }));
    expect(usage.report({ window: '1h', serverId: 'files' }).totals.calls).toBe(2);
    expect(usage.report({ window: '1h', toolKey: 'files:write' }).tools.map((tool) => tool.toolKey)).toEqual([
      'files:write',
    ]);
    const visible = usage.report({ window: '1h', visible: (_toolKey, serverId) => serverId === 'github' });
    expect(visible.totals.calls).toBe(1);
    expect(visible.servers.map((server) => server.serverId)).toEqual(['github']);
    expect(visible.series.reduce((sum, bucket) => sum + bucket.calls, 0)).toBe(1);
  });

  it('counts searches: tool_discovery and REST searches, those that found nothing, their durations', () => {
    const usage = new UsageStatistics({ now: clock().now });
    const search = (fields: Partial<AuditRecord>) =>
      usage.record({
        ts: new Date(start).toISOString(),
        requestId: 's',
        event: 'tool_discovery',
        queries: ['read a file'],
        resultCount: 3,
        durationMs: 4,
        outcome: 'ok',
        ...fields,
      });
    search({});
    search({ resultCount: 0 });
    search({ event: 'rest', resultCount: 0, durationMs: 8 });
    search({ event: 'rest' });
    const report = usage.report({ window: '1h' });
    expect(report.searches).toMatchObject({ count: 4, noMatch: 2 });
    expect(report.searches.p50Ms).toBeGreaterThan(3);
    expect(report.totals.calls).toBe(0);
  });

  it('bounds its series: tools past the cap share the (other) series', () => {
    const usage = new UsageStatistics({ now: clock().now, maxSeries: 3 });
    for (let index = 0; index < 10; index += 1) usage.record(call(start, { toolKey: `files:tool${index}` }));
    expect(usage.seriesCount).toBe(4);
    const report = usage.report({ window: '1h' });
    expect(report.totals.calls).toBe(10);
    expect(report.tools.find((tool) => tool.toolKey === '(other)')).toMatchObject({ serverId: '(other)', calls: 7 });
  });

  it('gives the place of a tool without calls in 7 days to a new one', () => {
    const time = clock();
    const usage = new UsageStatistics({ now: time.now, maxSeries: 1 });
    usage.record(call(start, { toolKey: 'files:old' }));
    time.advance(8 * 86_400_000);
    usage.record(call(time.now(), { toolKey: 'files:new' }));
    expect(usage.report({ window: '1h' }).tools.map((tool) => tool.toolKey)).toEqual(['files:new']);
  });
});
