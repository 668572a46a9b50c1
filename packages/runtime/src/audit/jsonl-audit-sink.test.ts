import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJsonlAuditSink } from './jsonl-audit-sink.js';

const record = {
  ts: '2026-01-01T00:00:00.000Z',
  requestId: '1',
  event: 'rest' as const,
  durationMs: 1,
  outcome: 'ok' as const,
};

describe('createJsonlAuditSink', () => {
  it('appends one JSON line per record, creating the folder, readable by the user only', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'search-mcp-audit-'));
    const file = join(directory, 'nested/audit.jsonl');
    const sink = createJsonlAuditSink(file);
    sink.record(record);
    sink.record({ ...record, requestId: '2' });
    await sink.close?.();
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { requestId: string });
    expect(lines.map((line) => line.requestId)).toEqual(['1', '2']);
    await rm(directory, { recursive: true, force: true });
  });

  it('reports the first write failure once and keeps going', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'search-mcp-audit-'));
    const errors: string[] = [];
    let failed: () => void = () => {};
    const firstFailure = new Promise<void>((resolve) => {
      failed = resolve;
    });
    // A folder where the file should be: the stream cannot open it.
    const sink = createJsonlAuditSink(directory, {
      onError: (error) => {
        errors.push(error.message);
        failed();
      },
    });
    sink.record(record);
    await firstFailure;
    sink.record(record);
    sink.record(record);
    await sink.close?.();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/EISDIR/);
    await rm(directory, { recursive: true, force: true });
  });
});
