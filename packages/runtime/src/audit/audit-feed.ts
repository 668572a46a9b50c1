import type { AuditRecord, AuditSink } from '@search-mcp/server';

/** Hears each audit record as it is made (the console's activity stream, usage statistics, metrics). */
export type AuditListener = (record: AuditRecord) => void;

/**
 * The runtime's one audit sink: each record goes to the configured sink (the JSON-lines file) and to every listener.
 * A listener that throws loses nothing for the others or for the file: the record was written first.
 */
export interface AuditFeed extends AuditSink {
  /** Adds a listener; the function returned removes it. */
  subscribe(listener: AuditListener): () => void;
  /** How many listeners hear records now. */
  readonly listenerCount: number;
  /** Forgets the listeners and closes the sink (flushing the file). */
  close(): Promise<void>;
}

export function createAuditFeed(sink: AuditSink | undefined, onListenerError?: (error: unknown) => void): AuditFeed {
  const listeners = new Set<AuditListener>();
  return {
    record: (record) => {
      sink?.record(record);
      for (const listener of listeners) {
        try {
          listener(record);
        } catch (error) {
          onListenerError?.(error);
        }
      }
    },
    subscribe: (listener) => {
      // A listener added twice is heard twice and removed by each unsubscribe: a wrapper makes each entry its own.
      const entry: AuditListener = (record) => listener(record);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    get listenerCount() {
      return listeners.size;
    },
    close: async () => {
      listeners.clear();
      await sink?.close?.();
    },
  };
}
