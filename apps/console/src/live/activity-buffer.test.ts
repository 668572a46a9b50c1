import { describe, expect, it } from 'vitest';
import type { ActivityRecord } from '../api/api-types.js';
import { activityLimit, appendRecords, filterRecords } from './activity-buffer.js';

function record(overrides: Partial<ActivityRecord>): ActivityRecord {
  return {
    ts: '2026-11-27T10:00:00.000Z',
    requestId: 'r',
    event: 'tool_execute',
    caller: 'admin',
    durationMs: 5,
    outcome: 'ok',
    ...overrides,
  };
}

describe('activity records', () => {
  it('keep the newest ones past the limit', () => {
    const many = Array.from({ length: activityLimit }, (_, index) => record({ requestId: String(index) }));
    const kept = appendRecords(many, [record({ requestId: 'new' })]);
    expect([kept.length, kept[0]?.requestId, kept.at(-1)?.requestId]).toEqual([activityLimit, '1', 'new']);
  });

  it('filter by text over tool, server, caller and queries, and by outcome', () => {
    const records = [
      record({ requestId: '1', toolKey: 'everything:echo', serverId: 'everything' }),
      record({ requestId: '2', toolKey: 'memory:read_graph', serverId: 'memory', outcome: 'tool_error' }),
      record({
        requestId: '3',
        event: 'tool_discovery',
        queries: ['send an Email'],
        caller: 'alice',
        outcome: 'error',
      }),
    ];
    const ids = (list: ActivityRecord[]) => list.map((entry) => entry.requestId);
    expect(ids(filterRecords(records, 'ECHO', 'all'))).toEqual(['1']);
    expect(ids(filterRecords(records, 'email', 'all'))).toEqual(['3']);
    expect(ids(filterRecords(records, 'alice', 'all'))).toEqual(['3']);
    expect(ids(filterRecords(records, '', 'failed'))).toEqual(['2', '3']);
    expect(ids(filterRecords(records, 'memory', 'tool_error'))).toEqual(['2']);
    expect(ids(filterRecords(records, '', 'ok'))).toEqual(['1']);
  });
});
