import { execFileSync } from 'node:child_process';

export interface ProcessEntry {
  pid: number;
  /** The command line. */
  args: string;
}

interface ProcessRow {
  pid: number;
  ppid: number;
  /** `ps`'s state letters (`Z…` for a zombie not yet reaped). */
  state: string;
  args: string;
}

/** Every process of the machine, from one `ps` listing. */
function listProcesses(): ProcessRow[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [, pid = '0', ppid = '0', state = '', args = ''] = /^\s*(\d+)\s+(\d+)\s+(\S*)\s?(.*)$/.exec(line) ?? [];
      return { pid: Number(pid), ppid: Number(ppid), state, args };
    });
}

/** Every process below `pid` (children, grandchildren, …) with its command line, from `ps`. */
export function processTree(pid: number): ProcessEntry[] {
  const rows = listProcesses();
  const found: ProcessEntry[] = [];
  const walk = (parent: number) => {
    for (const row of rows) {
      if (row.ppid === parent) {
        found.push({ pid: row.pid, args: row.args });
        walk(row.pid);
      }
    }
  };
  walk(pid);
  return found;
}

/** Every process below `pid` (children, grandchildren, …), from `ps`. */
export function descendants(pid: number): number[] {
  return processTree(pid).map((entry) => entry.pid);
}

/** Whether a process still exists (a zombie not yet reaped counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * The processes of `pids` that still exist (a zombie not yet reaped counts as gone), from one `ps` listing rather
 * than one `ps` per process: a test polling a tree of seven backends spawned seven a check.
 */
export function stillAlive(pids: readonly number[]): number[] {
  const living = new Set(listProcesses().flatMap((row) => (row.state.startsWith('Z') ? [] : [row.pid])));
  return pids.filter((pid) => living.has(pid));
}

/**
 * Waits for a condition that no event announces (processes appearing or ending), checking every `intervalMs` (50)
 * up to `timeoutMs`. A check that lists processes spawns `ps` and blocks while it runs: poll those less often.
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

/** The pids of the running processes (zombies left out) whose command line contains `marker`, from one `ps`. */
export function processesWith(marker: string): number[] {
  return listProcesses()
    .filter((row) => !row.state.startsWith('Z') && row.args.includes(marker) && row.pid !== process.pid)
    .map((row) => row.pid);
}
