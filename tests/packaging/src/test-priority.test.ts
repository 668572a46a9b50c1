/**
 * Builds go before tests (tooling/build-priority.ts): every package's vitest config lowers the priority of its run,
 * and what the run starts inherits it. This file runs in one such run: its worker, a child of vitest's main process,
 * must be at nice 10 or lower still.
 */
import { execFileSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';

describe("the tests' priority", () => {
  it('is nice 10 or lower in a test, and in a process a test starts', () => {
    expect(getPriority()).toBeGreaterThanOrEqual(10);
    const child = Number(
      execFileSync(process.execPath, ['-e', "process.stdout.write(String(require('node:os').getPriority()))"], {
        encoding: 'utf8',
      }),
    );
    expect(child).toBeGreaterThanOrEqual(10);
  });
});
