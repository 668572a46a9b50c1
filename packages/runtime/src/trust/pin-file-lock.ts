/**
 * The lock around a change of `pins.json` (docs/trust.md, "Pinning and quarantine"): every process that changes the
 * file (each app, each CLI command) re-reads it, changes it and renames a new copy over it; two doing so at once
 * would each write a copy without the other's change. The lock is a file beside it created with `O_EXCL` (`wx`),
 * which only one process can create; it is removed when the change is written. A lock older than `staleMs` is left
 * by a process that died mid-change and is taken over; waiting for a live one is bounded by `maxWaitMs`.
 */
import { open, stat, unlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

export interface PinFileLockOptions {
  /** A lock file older than this is a dead process's: default 5 s (a change takes milliseconds). */
  staleMs?: number;
  /** How long to wait for a live lock before giving up; default 10 s. */
  maxWaitMs?: number;
}

/** Runs `change` holding `<path>.lock`; the folder must exist. */
export async function withPinFileLock<T>(
  path: string,
  change: () => Promise<T>,
  options: PinFileLockOptions = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  await acquire(lockPath, options.staleMs ?? 5000, options.maxWaitMs ?? 10_000);
  try {
    return await change();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function acquire(lockPath: string, staleMs: number, maxWaitMs: number): Promise<void> {
  const deadline = Date.now() + maxWaitMs;
  let pause = 5;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    const age = await lockAge(lockPath);
    if (age !== undefined && age > staleMs) {
      // Left by a process that died mid-change: remove it and race for a fresh one (only one `wx` wins).
      await unlink(lockPath).catch(() => undefined);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(`the pin file is locked by another process (${lockPath}); try again, or delete the lock file`);
    }
    // Another process is mid-change (milliseconds): poll with a growing pause, there is no event to await.
    await delay(pause);
    pause = Math.min(pause * 2, 100);
  }
}

/** Milliseconds since the lock was written; undefined when it is gone already. */
async function lockAge(lockPath: string): Promise<number | undefined> {
  try {
    return Date.now() - (await stat(lockPath)).mtimeMs;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}
