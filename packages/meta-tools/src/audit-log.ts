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

/** Appends one JSON line per record to `file` (its folder is created). Writes are buffered by the stream. */
export function createJsonlAuditSink(file: string): AuditSink {
  mkdirSync(dirname(file), { recursive: true });
  const stream: WriteStream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  stream.on('error', () => {
    // A full disk must not take the server down; the records are lost, the calls go on.
  });
  return {
    record: (record) => {
      stream.write(`${JSON.stringify(record)}\n`);
    },
    close: () => new Promise<void>((resolve) => stream.end(resolve)),
  };
}
