/**
 * Collects a child's stderr and lets a test wait for what it expects there (bounded, woken by each chunk rather than
 * by a timer): stdout and stderr are separate pipes, so a log line may arrive after the answer it belongs to.
 */
import type { Stream } from 'node:stream';

export interface StderrCollector {
  text(): string;
  /** Resolves with the text once `predicate` holds; rejects with the text so far after `timeoutMs`. */
  waitFor(predicate: (text: string) => boolean, timeoutMs?: number): Promise<string>;
}

export function collectStderr(stream: Stream | null | undefined): StderrCollector {
  const chunks: string[] = [];
  const waiters = new Set<() => void>();
  stream?.on('data', (chunk: Buffer | string) => {
    chunks.push(chunk.toString());
    for (const wake of [...waiters]) wake();
  });
  const text = () => chunks.join('');
  return {
    text,
    waitFor(predicate, timeoutMs = 20_000) {
      return new Promise<string>((resolve, reject) => {
        const check = () => {
          const current = text();
          if (!predicate(current)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(current);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stderr did not show what the test waits for within ${timeoutMs} ms:\n${text()}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
