import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

/** One audit line (CONTRACT §8). Argument values are never recorded. */
export interface AuditRecord {
  ts: string;
  requestId: string;
  event: 'tool_discovery' | 'tool_execute' | 'tools/call' | 'rest';
  toolKey?: string;
  serverId?: string;
  projectId?: string;
  tokenId?: string;
  queries?: string[];
  resultCount?: number;
  durationMs: number;
  /** `ok`; `tool_error` (the tool ran and returned isError); `error` (the call failed); `cancelled`. */
  outcome: 'ok' | 'tool_error' | 'error' | 'cancelled';
  errorCode?: string;
}

export interface AuditSink {
  record(record: AuditRecord): void;
  close?(): Promise<void>;
}

/**
 * Appends one JSON line per record to `file` (its folder is created). Writes are buffered by the stream. A write
 * failure (full disk, removed folder) must not take the server down: the calls go on, `onError` hears of the first
 * failure so someone does, and later records are dropped.
 */
export function createJsonlAuditSink(file: string, options: { onError?: (error: Error) => void } = {}): AuditSink {
  mkdirSync(dirname(file), { recursive: true });
  const stream: WriteStream = createWriteStream(file, { flags: 'a', mode: 0o600 });
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
