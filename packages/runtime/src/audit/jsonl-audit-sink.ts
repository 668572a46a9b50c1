import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditSink } from '@search-mcp/server';

export interface JsonlAuditSinkOptions {
  /** Hears of the first write failure (full disk, removed folder); later records are dropped. */
  onError?: (error: Error) => void;
}

/**
 * Appends one JSON line per record to `file` (its folder is created; the file is readable by the user only). Writes
 * are buffered by the stream. A write failure must not take the server down: the calls go on, `onError` hears of the
 * first failure so someone does, and later records are dropped.
 */
export function createJsonlAuditSink(file: string, options: JsonlAuditSinkOptions = {}): AuditSink {
  mkdirSync(dirname(file), { recursive: true });
  const stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  let failed = false;
  stream.on('error', (error) => {
    if (failed) return;
    failed = true;
    options.onError?.(error);
  });
  return {
    record: (record) => {
      if (!failed) stream.write(`${JSON.stringify(record)}\n`);
    },
    close: () => new Promise<void>((resolve) => stream.end(resolve)),
  };
}
