import { createReadStream } from 'node:fs';
import type { AuditRecord } from '@search-mcp/server';

export interface AuditReplayOptions {
  /** The byte to start at (a line's start). */
  from: number;
  /** The byte to stop before (the file's size when the statistics started: later lines are heard live). */
  to: number;
  /** Records older than this (ms since the epoch) are skipped without being parsed. */
  since: number;
  onRecord: (record: AuditRecord) => void;
}

export interface AuditReplayResult {
  records: number;
  /** Lines that are not an audit record (a torn line of a crash, a foreign line): skipped. */
  badLines: number;
  /** The 1-based number, counted from `from`, of the first bad line. */
  firstBadLine?: number;
}

const TS_PREFIX = '{"ts":"';
const ISO_LENGTH = 24;

/**
 * Reads the JSON-lines audit file between two offsets and hands each record over. The sink writes `ts` first as
 * `toISOString()`, so a line older than `since` is recognised by its first 31 characters and never parsed: a cold
 * start over a long log parses only its last 7 days.
 */
export async function replayAuditFile(file: string, options: AuditReplayOptions): Promise<AuditReplayResult> {
  const result: AuditReplayResult = { records: 0, badLines: 0 };
  if (options.to <= options.from) return result;
  const sinceIso = new Date(options.since).toISOString();
  let lineNumber = 0;
  const take = (line: string) => {
    lineNumber += 1;
    if (line.length === 0) return;
    if (line.startsWith(TS_PREFIX) && line.slice(TS_PREFIX.length, TS_PREFIX.length + ISO_LENGTH) < sinceIso) return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      record = undefined;
    }
    if (!isAuditRecord(record)) {
      result.badLines += 1;
      result.firstBadLine ??= lineNumber;
      return;
    }
    result.records += 1;
    options.onRecord(record);
  };
  const stream = createReadStream(file, { start: options.from, end: options.to - 1, encoding: 'utf8' });
  let rest = '';
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest + chunk;
    let start = 0;
    let end = text.indexOf('\n', start);
    while (end !== -1) {
      take(text.slice(start, end));
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    rest = text.slice(start);
  }
  take(rest);
  return result;
}

function isAuditRecord(value: unknown): value is AuditRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<AuditRecord>;
  return typeof record.ts === 'string' && typeof record.event === 'string' && typeof record.outcome === 'string';
}
