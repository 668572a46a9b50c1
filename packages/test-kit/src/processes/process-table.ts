import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** One process of the machine, as the tests that count processes (backends, workers, orphans) need it. */
export interface ProcessRow {
  pid: number;
  ppid: number;
  /** The process group (backends run in groups of their own). */
  pgid: number;
  /** The state letter, as `ps` shows it: `Z` for a zombie that exited and was not yet reaped. */
  state: string;
  /** The command line, its arguments joined by spaces (`[name]` when it has none, e.g. a zombie). */
  args: string;
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/**
 * Every process of the machine. On Linux it reads `/proc`: the tests poll this while they wait for processes to appear
 * or end, and a `ps` per poll cost ~12 ms of CPU and blocked the test's worker while it ran. Elsewhere (macOS) it runs
 * `ps`.
 */
export function processTable(): ProcessRow[] {
  if (!hasProc) return processTableFromPs();
  const rows: ProcessRow[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const row = processRowFromProc(Number(name));
    if (row) rows.push(row);
  }
  return rows;
}

/** One process by its id, or undefined when there is none (it never existed, or it was reaped). */
export function processOf(pid: number): ProcessRow | undefined {
  if (hasProc) return processRowFromProc(pid);
  return processTableFromPs().find((row) => row.pid === pid);
}

/** Whether `row` is a process that still runs: a zombie has exited and counts as gone. */
export function isRunning(row: ProcessRow): boolean {
  return !row.state.startsWith('Z');
}

/** Whether process `pid` still runs: one that never existed, was reaped or is a zombie counts as gone. */
export function isProcessRunning(pid: number): boolean {
  const row = processOf(pid);
  return row !== undefined && isRunning(row);
}

/** Every process below `pid` (children, grandchildren, …), from one table. */
export function descendantsOf(pid: number, table: readonly ProcessRow[] = processTable()): ProcessRow[] {
  const found: ProcessRow[] = [];
  const parents = [pid];
  while (parents.length > 0) {
    const parent = parents.shift() as number;
    for (const row of table) {
      if (row.ppid === parent && row.pid !== pid && !found.includes(row)) {
        found.push(row);
        parents.push(row.pid);
      }
    }
  }
  return found;
}

function processRowFromProc(pid: number): ProcessRow | undefined {
  let stat: string;
  let commandLine: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined; // gone between the listing and the read
  }
  // `pid (name) state ppid pgrp …`: the name may hold spaces and parentheses, so the fields start after the last `)`.
  const nameEnd = stat.lastIndexOf(')');
  const [state = '', ppid = '0', pgid = '0'] = stat.slice(nameEnd + 2).split(' ');
  const args = commandLine.split('\0').filter((part) => part !== '');
  return {
    pid,
    ppid: Number(ppid),
    pgid: Number(pgid),
    state,
    args: args.length > 0 ? args.join(' ') : `[${stat.slice(stat.indexOf('(') + 1, nameEnd)}]`,
  };
}

function processTableFromPs(): ProcessRow[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .flatMap((line) => {
      const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S*)\s?(.*)$/.exec(line);
      if (!match) return [];
      const [, pid = '0', ppid = '0', pgid = '0', state = '', args = ''] = match;
      return [{ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), state, args }];
    });
}
