/**
 * Benchmark of the usage statistics (packages/runtime/src/usage/, docs/console.md "Usage statistics"), in process.
 *
 *   npx -y pnpm@10.34.9 bench:stats
 *
 * Writes a 1,000,000-record audit file spread over the last 7 days, as the JSON-lines audit sink writes it: 200 tools
 * of 10 servers (a few busy, most quiet), errors and tool errors, searches (tool_discovery and REST, some finding
 * nothing), REST reads that are no calls. Then measures:
 *   (a) a cold start: no snapshot, the whole audit file read back (`ready` settled);
 *   (b) a start with a snapshot covering the first 990,000 records, plus the 10,000 written after it (a crash after
 *       the last snapshot): the goal is ready within 2 s with a million records behind;
 *   (c) the heap the statistics hold (heapUsed after GC, minus before);
 *   (d) `record()` per record (in memory, and persisted: the snapshot offset needs each record's JSON line length),
 *       and `report()` per window.
 * (a) and (b) must agree on every figure: the report of each is compared.
 *
 * Writes bench/results/usage-stats.json and .md and prints the markdown to stdout. Progress goes to stderr.
 * Env: USAGE_BENCH_RECORDS (default 1,000,000), USAGE_BENCH_STARTS (starts per case, default 3).
 */
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type AuditRecord, UsageStatistics, type UsageWindow } from '@search-mcp/runtime';
import {
  bytesToMb,
  findGarbageCollector,
  loadAverage,
  machineInfo,
  machineSummary,
  median,
  progressLog,
  round,
  settleMemory,
} from './src/bench-support.js';

const log = progressLog('usage-stats');
const resultsDirectory = new URL('./results/', import.meta.url);
const totalRecords = Number(process.env.USAGE_BENCH_RECORDS ?? 1_000_000);
const startsPerCase = Number(process.env.USAGE_BENCH_STARTS ?? 3);
const afterSnapshot = 10_000;
const goalReadyMs = 2000;
const servers = 10;
const toolsPerServer = 20;
const dayMs = 86_400_000;

/** A small deterministic generator: the same file every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The records, oldest first, spread evenly over the 7 days before `end`. */
function* auditRecords(count: number, end: number): Generator<AuditRecord> {
  const next = random(22);
  const span = 7 * dayMs - 60_000;
  for (let index = 0; index < count; index += 1) {
    const ts = new Date(end - span + Math.floor((span * index) / count)).toISOString();
    const kind = next();
    // Zipf-like: tool i of server s is used about 1/(i+1) as often as the first; server s about 1/(s+1).
    const server = Math.min(servers - 1, Math.floor(servers * next() ** 2));
    const tool = Math.min(toolsPerServer - 1, Math.floor(toolsPerServer * next() ** 3));
    const durationMs = round(Math.exp(2 + 2.5 * next() + next()), 1);
    const requestId = `bench:${index}`;
    if (kind < 0.08) {
      const resultCount = next() < 0.1 ? 0 : 5;
      yield {
        ts,
        requestId,
        event: 'tool_discovery',
        queries: ['read a file'],
        resultCount,
        durationMs,
        outcome: 'ok',
      };
    } else if (kind < 0.1) {
      yield { ts, requestId, event: 'rest', queries: ['open an issue'], resultCount: 3, durationMs, outcome: 'ok' };
    } else if (kind < 0.13) {
      // GET /v1/tools and friends: audited, not calls.
      yield { ts, requestId, event: 'rest', tokenId: 'main', durationMs: 1.2, outcome: 'ok' };
    } else {
      const serverId = `server${server}`;
      const toolKey = `${serverId}:tool_${tool}`;
      const failure = next();
      const event = kind < 0.6 ? 'tool_execute' : kind < 0.9 ? 'tools/call' : 'rest';
      yield {
        ts,
        requestId,
        event,
        toolKey,
        serverId,
        tokenId: 'main',
        durationMs,
        ...(failure < 0.03
          ? { outcome: 'error' as const, errorCode: 'BACKEND_ERROR' }
          : failure < 0.05
            ? { outcome: 'tool_error' as const }
            : { outcome: 'ok' as const }),
      };
    }
  }
}

async function writeAuditFile(file: string, records: Iterable<AuditRecord>, flags: 'w' | 'a'): Promise<number> {
  const stream = createWriteStream(file, { flags, mode: 0o600 });
  let lines: string[] = [];
  let written = 0;
  for (const record of records) {
    lines.push(JSON.stringify(record));
    written += 1;
    if (lines.length === 10_000) {
      if (!stream.write(`${lines.join('\n')}\n`))
        await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
      lines = [];
    }
  }
  if (lines.length > 0) stream.write(`${lines.join('\n')}\n`);
  await new Promise<void>((resolve, reject) =>
    stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return written;
}

async function timedStart(auditFile: string, usageFile: string): Promise<{ ms: number; usage: UsageStatistics }> {
  const started = performance.now();
  // A long interval: the bench saves when it means to.
  const usage = new UsageStatistics({ persistence: { auditFile, usageFile, saveEveryMs: 3_600_000 } });
  await usage.ready;
  return { ms: performance.now() - started, usage };
}

function timeEach(runs: number, action: () => void): number[] {
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    action();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const { gc, source: gcSource } = findGarbageCollector();
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-usage-bench-'));
  try {
    const auditFile = join(directory, 'audit.jsonl');
    const snapshotFile = join(directory, 'audit.jsonl.usage.json');
    const end = Date.now();
    const all = auditRecords(totalRecords, end);
    const take = (count: number) =>
      (function* () {
        for (let index = 0; index < count; index += 1) {
          const item = all.next();
          if (item.done) return;
          yield item.value;
        }
      })();

    log(`writing ${totalRecords - afterSnapshot} audit records`);
    let started = performance.now();
    await writeAuditFile(auditFile, take(totalRecords - afterSnapshot), 'w');
    const writeMs = performance.now() - started;
    log('reading them once and writing the snapshot');
    const first = await timedStart(auditFile, snapshotFile);
    started = performance.now();
    await first.usage.close();
    const saveMs = performance.now() - started;
    const snapshotBytes = (await stat(snapshotFile)).size;
    log(`appending ${afterSnapshot} records after the snapshot`);
    await writeAuditFile(auditFile, take(afterSnapshot), 'a');
    const auditBytes = (await stat(auditFile)).size;

    log('(a) cold starts (no snapshot)');
    const cold: number[] = [];
    let coldReport: unknown;
    for (let run = 0; run < startsPerCase; run += 1) {
      const start = await timedStart(auditFile, join(directory, `absent-${run}.json`));
      cold.push(start.ms);
      coldReport = start.usage.report({ window: '7d' });
      log(`  ${round(start.ms, 0)} ms`);
    }

    log('(b) starts with the snapshot and the records after it');
    const warm: number[] = [];
    let warmReport: unknown;
    for (let run = 0; run < startsPerCase; run += 1) {
      // A copy each time, so every start reads the same snapshot.
      const copy = join(directory, `snapshot-${run}.json`);
      await copyFile(snapshotFile, copy);
      const start = await timedStart(auditFile, copy);
      warm.push(start.ms);
      warmReport = start.usage.report({ window: '7d' });
      log(`  ${round(start.ms, 0)} ms`);
    }
    const consistent = JSON.stringify(coldReport) === JSON.stringify(warmReport);

    log('(c) memory held');
    await settleMemory(gc);
    const heapBefore = process.memoryUsage().heapUsed;
    const held = await timedStart(auditFile, snapshotFile);
    await settleMemory(gc);
    const heapHeld = process.memoryUsage().heapUsed - heapBefore;

    log('(d) record() and report()');
    const live = Array.from(auditRecords(200_000, Date.now()));
    for (const record of live) record.ts = new Date().toISOString();
    const inMemory = new UsageStatistics();
    started = performance.now();
    for (const record of live) inMemory.record(record);
    const recordInMemoryUs = ((performance.now() - started) * 1000) / live.length;
    started = performance.now();
    for (const record of live) held.usage.record(record);
    const recordPersistedUs = ((performance.now() - started) * 1000) / live.length;
    const windows: UsageWindow[] = ['1h', '24h', '7d'];
    const reportMs = Object.fromEntries(
      windows.map((window) => [window, round(median(timeEach(30, () => held.usage.report({ window }))), 2)]),
    ) as Record<UsageWindow, number>;
    const visibleReportMs = round(
      median(
        timeEach(30, () => held.usage.report({ window: '7d', visible: (_key, serverId) => serverId !== 'server0' })),
      ),
      2,
    );
    const series = held.usage.seriesCount;
    await held.usage.close();
    machine.loadAverageAtEnd = loadAverage();

    const results = {
      machine,
      records: totalRecords,
      recordsAfterSnapshot: afterSnapshot,
      tools: servers * toolsPerServer,
      series,
      auditFileMb: round(bytesToMb(auditBytes), 1),
      snapshotKb: round(snapshotBytes / 1024, 1),
      writeAuditFileMs: round(writeMs, 0),
      saveSnapshotMs: round(saveMs, 1),
      coldStartMs: { runs: cold.map((ms) => round(ms, 0)), median: round(median(cold), 0) },
      snapshotStartMs: { runs: warm.map((ms) => round(ms, 0)), median: round(median(warm), 0) },
      goalReadyMs,
      goalMet: median(warm) <= goalReadyMs,
      coldAndSnapshotAgree: consistent,
      heapHeldMb: round(bytesToMb(heapHeld), 1),
      gcSource,
      recordUs: { inMemory: round(recordInMemoryUs, 2), persisted: round(recordPersistedUs, 2) },
      reportMs: { ...reportMs, '7d with a visibility filter': visibleReportMs },
    };
    const text = markdown(results);
    await mkdir(resultsDirectory, { recursive: true });
    await writeFile(new URL('usage-stats.json', resultsDirectory), `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(new URL('usage-stats.md', resultsDirectory), text);
    process.stdout.write(text);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function markdown(results: {
  machine: ReturnType<typeof machineInfo>;
  records: number;
  recordsAfterSnapshot: number;
  tools: number;
  series: number;
  auditFileMb: number;
  snapshotKb: number;
  saveSnapshotMs: number;
  coldStartMs: { runs: number[]; median: number };
  snapshotStartMs: { runs: number[]; median: number };
  goalReadyMs: number;
  goalMet: boolean;
  coldAndSnapshotAgree: boolean;
  heapHeldMb: number;
  gcSource: string;
  recordUs: { inMemory: number; persisted: number };
  reportMs: Record<string, number>;
}): string {
  const { machine } = results;
  const over = results.coldStartMs.median - results.goalReadyMs;
  const slower = `${round(results.coldStartMs.median / results.goalReadyMs, 2)} × the goal (${over} ms over)`;
  return `# Usage statistics (bench/usage-stats-bench.ts)

${machineSummary(machine)} · load ${machine.loadAverageAtStart.join(' ')} → ${machine.loadAverageAtEnd?.join(' ')}

An audit file of ${results.records.toLocaleString('en')} records over 7 days (${results.auditFileMb} MB; ${results.tools} tools of 10 servers, errors, searches, REST reads), read back by \`UsageStatistics\` with persistence (${startsPerCase} starts per case; ready = \`usage.ready\` settled):

| start | median | runs |
| --- | --- | --- |
| (a) cold: no snapshot, the whole file read | ${results.coldStartMs.median} ms | ${results.coldStartMs.runs.join(', ')} ms |
| (b) snapshot (${results.snapshotKb} KB) + ${results.recordsAfterSnapshot.toLocaleString('en')} records after it | ${results.snapshotStartMs.median} ms | ${results.snapshotStartMs.runs.join(', ')} ms |

Goal: ready within ${results.goalReadyMs} ms with a million records behind, with the snapshot: **${results.goalMet ? 'met' : 'not met'}**. The cold replay (first start after an upgrade, or after losing the snapshot) is ${results.coldStartMs.median <= results.goalReadyMs ? 'within the goal too' : slower}; records are counted meanwhile, reports lack what is still being read. (a) and (b) give the same 7-day report: **${results.coldAndSnapshotAgree ? 'yes' : 'NO'}**.

- Heap held (heapUsed after GC, ${results.gcSource}): **${results.heapHeldMb} MB** for ${results.series} tool series (every minute and hour bucket of 7 days filled).
- Writing the snapshot: ${results.saveSnapshotMs} ms.
- \`record()\`: ${results.recordUs.inMemory} µs per record in memory, ${results.recordUs.persisted} µs persisted (the record's JSON line length is counted for the snapshot offset).
- \`report()\` (median of 30): ${Object.entries(results.reportMs)
    .map(([window, ms]) => `${window} ${ms} ms`)
    .join(', ')}.
`;
}

await main();
