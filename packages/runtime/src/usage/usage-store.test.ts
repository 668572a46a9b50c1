import { appendFile, mkdtemp, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '@search-mcp/server';
import type { Logger } from '@search-mcp/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditFeed } from '../audit/audit-feed.js';
import { createJsonlAuditSink } from '../audit/jsonl-audit-sink.js';
import { UsageStatistics } from './usage-statistics.js';

const now = Date.parse('2026-11-20T10:30:00.000Z');

function call(offsetMs: number, toolKey = 'files:read'): AuditRecord {
  return {
    ts: new Date(now - offsetMs).toISOString(),
    requestId: String(offsetMs),
    event: 'tool_execute',
    toolKey,
    serverId: 'files',
    durationMs: 12.5,
    outcome: 'ok',
  };
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const logger: Logger & { warnings: string[] } = {
    warnings,
    debug: () => {},
    info: () => {},
    warn: (message: string) => void warnings.push(message),
    error: (message: string) => void warnings.push(message),
    child: () => logger,
  } as unknown as Logger & { warnings: string[] };
  return logger;
}

let directory: string;
let auditFile: string;
let usageFile: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-usage-'));
  auditFile = join(directory, 'audit.jsonl');
  usageFile = join(directory, 'state', 'audit.jsonl.usage.json');
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** One run of an app: the audit file written by the real sink, the statistics listening to the feed. */
async function run(records: AuditRecord[], logger: Logger = recordingLogger()) {
  const feed = createAuditFeed(createJsonlAuditSink(auditFile));
  const usage = new UsageStatistics({ now: () => now, persistence: { auditFile, usageFile }, logger });
  feed.subscribe((record) => usage.record(record));
  await usage.ready;
  for (const record of records) feed.record(record);
  return { feed, usage };
}

const calls = (usage: UsageStatistics) => usage.report({ window: '7d' }).totals.calls;

describe('UsageStatistics persistence', () => {
  it('writes a snapshot at close (user-only), and a start reads it: nothing lost, nothing counted twice', async () => {
    const first = await run([call(1000), call(2000), call(3 * 86_400_000)]);
    await first.usage.close();
    await first.feed.close();
    expect((await stat(usageFile)).mode & 0o777).toBe(0o600);
    const snapshot = JSON.parse(await readFile(usageFile, 'utf8')) as { audit: { offset: number } };
    expect(snapshot.audit.offset).toBe((await stat(auditFile)).size);

    const second = await run([call(500)]);
    expect(second.usage.persisted).toBe(true);
    expect(calls(second.usage)).toBe(4);
    expect(second.usage.report({ window: '7d' }).persisted).toBe(true);
    await second.usage.close();
    await second.feed.close();
  });

  it('adds the audit lines written after the last snapshot (a crash: no snapshot at close)', async () => {
    const first = await run([call(1000)]);
    await first.usage.save();
    first.feed.record(call(900));
    first.feed.record(call(800, 'files:write'));
    // The process dies: the audit file is flushed, the statistics never write again.
    await first.feed.close();

    const second = await run([]);
    expect(calls(second.usage)).toBe(3);
    expect(second.usage.report({ window: '7d', toolKey: 'files:write' }).totals.calls).toBe(1);
    await second.usage.close();
    await second.feed.close();
  });

  it('without a snapshot, rebuilds the last 7 days from the audit file', async () => {
    const lines = [call(1000), call(2 * 86_400_000), call(8 * 86_400_000)].map((record) => JSON.stringify(record));
    await writeFile(auditFile, `${lines.join('\n')}\n`);
    const { usage, feed } = await run([]);
    expect(calls(usage)).toBe(2);
    await usage.close();
    await feed.close();
  });

  it('skips a damaged snapshot with a warning and rebuilds from the audit file', async () => {
    await writeFile(auditFile, `${JSON.stringify(call(1000))}\n${JSON.stringify(call(2000))}\n`);
    await run([]).then(async ({ usage, feed }) => {
      await usage.close();
      await feed.close();
    });
    await writeFile(usageFile, '{"version":1,"audit":{"offset":');
    const logger = recordingLogger();
    const { usage, feed } = await run([], logger);
    expect(calls(usage)).toBe(2);
    expect(logger.warnings).toEqual([expect.stringContaining('damaged')]);
    // A snapshot of the wrong shape is damaged too.
    await usage.close();
    await feed.close();
    await writeFile(usageFile, JSON.stringify({ version: 1, audit: { offset: 0 }, tools: [{ serverId: 1 }] }));
    const again = await run([], recordingLogger());
    expect(calls(again.usage)).toBe(2);
    await again.usage.close();
    await again.feed.close();
  });

  it('skips bad audit lines with one warning and keeps every other record', async () => {
    const good = JSON.stringify(call(1000));
    await writeFile(
      auditFile,
      `${good}\nnot json at all\n{"ts":"x"}\n${good}\n{"ts":"2026-11-20T10:29:00.000Z","event":"tool_ex`,
    );
    const logger = recordingLogger();
    const { usage, feed } = await run([], logger);
    expect(calls(usage)).toBe(2);
    expect(logger.warnings).toEqual([expect.stringContaining('skipped audit lines')]);
    await usage.close();
    await feed.close();
  });

  it('counts only the audit file when it is shorter than the snapshot covers (lines never written): nothing twice', async () => {
    const first = await run([call(1000), call(2000), call(3000)]);
    await first.usage.close();
    await first.feed.close();
    // The last line never reached the file (a crash before the stream flushed): the snapshot says 3, the file has 2.
    const lines = (await readFile(auditFile, 'utf8')).split('\n').filter(Boolean);
    await truncate(auditFile, Buffer.byteLength(`${lines.slice(0, 2).join('\n')}\n`));
    const second = await run([]);
    expect(calls(second.usage)).toBe(2);
    await second.usage.close();
    await second.feed.close();
  });

  it('keeps the snapshot and reads a rotated audit file (another inode) from its start', async () => {
    const first = await run([call(1000), call(2000), call(3000)]);
    await first.usage.close();
    await first.feed.close();
    await rename(auditFile, `${auditFile}.1`);
    await writeFile(auditFile, `${JSON.stringify(call(100))}\n`);
    const second = await run([]);
    expect(calls(second.usage)).toBe(4);
    await second.usage.close();
    await second.feed.close();
  });

  it('writes no snapshot once the audit sink failed: its offset would count lines the file never got', async () => {
    const first = await run([call(1000)]);
    await first.usage.save();
    const saved = await readFile(usageFile, 'utf8');
    first.usage.auditSinkFailed();
    first.feed.record(call(900));
    await first.usage.close();
    await first.feed.close();
    expect(await readFile(usageFile, 'utf8')).toBe(saved);
  });

  it('writes no snapshot while another process appends to the same audit file; the next start reads it all', async () => {
    const firstLogger = recordingLogger();
    const first = await run([call(1000)], firstLogger);
    await first.usage.save();
    // Another process with the same config appends its own records.
    await appendFile(auditFile, `${JSON.stringify(call(900, 'files:write'))}\n`);
    first.feed.record(call(800));
    await first.feed.close();
    const logger = recordingLogger();
    // A snapshot now would claim the other process's line: none is written.
    const stale = await readFile(usageFile, 'utf8');
    await first.usage.close();
    expect(await readFile(usageFile, 'utf8')).toBe(stale);
    expect(firstLogger.warnings).toEqual([expect.stringContaining('another process writes the audit file')]);
    const second = await run([], logger);
    expect(calls(second.usage)).toBe(3);
    expect(second.usage.report({ window: '7d', toolKey: 'files:write' }).totals.calls).toBe(1);
    await second.usage.close();
    await second.feed.close();
  });

  it('saves on its own every saveEveryMs', async () => {
    const feed = createAuditFeed(createJsonlAuditSink(auditFile));
    const usage = new UsageStatistics({
      now: () => now,
      persistence: { auditFile, usageFile, saveEveryMs: 20 },
    });
    feed.subscribe((record) => usage.record(record));
    feed.record(call(1000));
    await expect
      .poll(async () => JSON.parse(await readFile(usageFile, 'utf8').catch(() => '{}')).tools?.length ?? 0)
      .toBe(1);
    await usage.close();
    await feed.close();
  });
});
