import { type ClusterStore, createMemoryClusterStore } from '@search-mcp/cluster';
import type { AuditRecord } from '@search-mcp/server';
import type { Logger } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedUsage } from './shared-usage.js';
import { UsageStatistics } from './usage-statistics.js';

const start = Date.UTC(2026, 10, 28, 6, 0, 10);
const stores: ClusterStore[] = [];

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

function call(toolKey: string, at: number, outcome: AuditRecord['outcome'] = 'ok', durationMs = 10): AuditRecord {
  return {
    ts: new Date(at).toISOString(),
    event: 'tool_execute',
    toolKey,
    outcome,
    durationMs,
  } as AuditRecord;
}

/** Two replicas over one store, and how many records each wrote. */
function twoReplicas(clock: { now: number }) {
  const first = createMemoryClusterStore({ shared: true, now: () => clock.now });
  const second = createMemoryClusterStore({ sameStateAs: first, now: () => clock.now });
  stores.push(second, first);
  const writes = { count: 0 };
  const counted = (store: ClusterStore): ClusterStore => ({
    ...store,
    getRecord: (key) => store.getRecord(key),
    setRecord: (key, value, options) => {
      writes.count += 1;
      return store.setRecord(key, value, options);
    },
    addMember: (key, member, options) => store.addMember(key, member, options),
    members: (key) => store.members(key),
  });
  const statistics = (store: ClusterStore) =>
    new UsageStatistics({ now: () => clock.now, cluster: { store: counted(store), flushEveryMs: 3_600_000 } });
  return { a: statistics(first), b: statistics(second), writes };
}

describe('UsageStatistics with a shared cluster store', () => {
  it("sums every replica's calls, writing each changed bucket once per flush rather than once per call", async () => {
    const clock = { now: start };
    const { a, b, writes } = twoReplicas(clock);
    for (let index = 0; index < 50; index += 1) a.record(call('docs:search', clock.now));
    b.record(call('docs:search', clock.now, 'error', 200));
    b.record(call('git:log', clock.now));
    expect(writes.count).toBe(0);

    // A report writes what its own replica counted first; the other replica's figures are as of its last write.
    expect((await a.reportAcrossReplicas({ window: '1h' })).totals.calls).toBe(50);
    const report = await b.reportAcrossReplicas({ window: '1h' });
    expect(report.totals).toMatchObject({ calls: 52, errors: 1 });
    expect(report.tools).toEqual([
      expect.objectContaining({ toolKey: 'docs:search', serverId: 'docs', calls: 51, errors: 1 }),
      expect.objectContaining({ toolKey: 'git:log', serverId: 'git', calls: 1, errors: 0 }),
    ]);
    expect(report.persisted).toBe(true);
    // Each replica wrote its minute and its hour bucket once: 51 calls, 4 writes.
    expect(writes.count).toBe(4);
    expect((await a.reportAcrossReplicas({ window: '24h' })).totals.calls).toBe(52);
    // Nothing new: nothing written.
    expect(writes.count).toBe(4);
    // Each replica's own figures stay its own.
    expect(a.report({ window: '1h' }).totals.calls).toBe(50);
    await a.close();
    await b.close();
  });

  it('adds what a replica hears after a write to its bucket, and a late record to the current bucket', async () => {
    const clock = { now: start };
    const { a, b } = twoReplicas(clock);
    a.record(call('docs:search', clock.now));
    await a.reportAcrossReplicas({ window: '1h' });
    expect((await b.reportAcrossReplicas({ window: '1h' })).totals.calls).toBe(1);
    a.record(call('docs:search', clock.now));
    expect((await b.reportAcrossReplicas({ window: '1h' })).totals.calls).toBe(1);
    expect((await a.reportAcrossReplicas({ window: '1h' })).totals.calls).toBe(2);

    // 20 minutes on, a record stamped at the start: its bucket was let go, so it counts now, never replacing it.
    clock.now += 20 * 60_000;
    await a.reportAcrossReplicas({ window: '1h' });
    a.record(call('docs:search', start));
    const report = await a.reportAcrossReplicas({ window: '1h' });
    expect(report.totals.calls).toBe(3);
    expect(report.series.filter((bucket) => bucket.calls > 0).map((bucket) => bucket.calls)).toEqual([2, 1]);
    await a.close();
    await b.close();
  });

  it('counts tools past maxSeries as (other), as the process statistics do', async () => {
    const store = createMemoryClusterStore({ shared: true, now: () => start });
    stores.push(store);
    const statistics = new UsageStatistics({ now: () => start, maxSeries: 1, cluster: { store } });
    statistics.record(call('docs:search', start));
    statistics.record(call('git:log', start));
    statistics.record(call('git:diff', start));
    const report = await statistics.reportAcrossReplicas({ window: '1h' });
    expect(report.tools.map((tool) => [tool.toolKey, tool.calls])).toEqual([
      ['(other)', 2],
      ['docs:search', 1],
    ]);
    await statistics.close();
  });

  it('is the process figures without a cluster store', async () => {
    const statistics = new UsageStatistics({ now: () => start });
    statistics.record(call('docs:search', start));
    expect((await statistics.reportAcrossReplicas({ window: '1h' })).totals.calls).toBe(1);
  });
});

describe('SharedUsage around store outages', () => {
  /** A store that fails (or, `hanging`, never answers) while told to; and the warnings logged. */
  function flakyStore() {
    const store = createMemoryClusterStore({ shared: true });
    stores.push(store);
    const state = { down: false, hanging: false };
    const gate = async () => {
      if (state.hanging) await new Promise(() => {});
      if (state.down) throw new Error('store down');
    };
    const flaky: ClusterStore = {
      ...store,
      setRecord: async (key, value, options) => {
        await gate();
        return store.setRecord(key, value, options);
      },
      addMember: async (key, member, options) => {
        await gate();
        return store.addMember(key, member, options);
      },
    };
    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => warnings.push(message),
      error: () => undefined,
      child: () => logger,
    };
    return { flaky, state, warnings, logger };
  }

  it('warns once per outage: a write that succeeds again re-arms the warning', async () => {
    const { flaky, state, warnings, logger } = flakyStore();
    const usage = new SharedUsage(flaky, { now: Date.now, logger, flushEveryMs: 3_600_000, maxSeries: 10 });
    const outage = async () => {
      state.down = true;
      usage.heard(call('docs:search', Date.now()));
      await usage.flush();
      usage.heard(call('docs:search', Date.now()));
      await usage.flush();
      state.down = false;
      await usage.flush();
    };
    await outage();
    expect(warnings).toHaveLength(1);
    await outage();
    expect(warnings).toHaveLength(2);
    await usage.close();
  });

  it('closes within its wait when the store does not answer', async () => {
    const { flaky, state, logger } = flakyStore();
    const usage = new SharedUsage(flaky, { now: Date.now, logger, maxSeries: 10, closeWaitMs: 200 });
    usage.heard(call('docs:search', Date.now()));
    state.hanging = true;
    const started = Date.now();
    await usage.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
