import { isRunning, processTable } from '@search-mcp/test-kit';

/** The processes of `pids` that still exist (a zombie not yet reaped counts as gone), from one process table. */
export function stillAlive(pids: readonly number[]): number[] {
  const living = new Set(processTable().flatMap((row) => (isRunning(row) ? [row.pid] : [])));
  return pids.filter((pid) => living.has(pid));
}

/**
 * Waits for a condition that no event announces (processes appearing or ending), checking every `intervalMs` (50)
 * up to `timeoutMs`. A check that reads the whole process table costs a few milliseconds: poll those less often.
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The pids of the running processes (zombies left out) whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  return processTable()
    .filter((row) => isRunning(row) && row.args.includes(marker) && row.pid !== process.pid)
    .map((row) => row.pid);
}
