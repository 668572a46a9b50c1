import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { descendantsOf, isRunning, processOf, processTable } from './process-table.js';

const program = "console.log('started'); setInterval(() => {}, 1000)";
const started: ChildProcess[] = [];
// Each tree is a process group of its own: the whole group goes, or the node process below the shell outlives it.
afterEach(async () => {
  for (const child of started.splice(0)) {
    if (child.pid === undefined) continue;
    const exited = child.exitCode !== null || child.signalCode !== null ? undefined : once(child, 'exit');
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
    await exited;
  }
});

/** A shell in a group of its own, and a node process it started with an argument holding spaces, once that runs. */
async function startTree(): Promise<ChildProcess> {
  const script = `"${process.execPath}" -e "${program}" "an argument with spaces" & wait`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  await once(child.stdout as NodeJS.ReadableStream, 'data');
  return child;
}

/** `ps`'s view of some processes: the reference the table must agree with. */
function psRows(pids: number[]) {
  return execFileSync('ps', ['-o', 'pid=,ppid=,pgid=,stat=,args=', '-p', pids.join(',')], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [, pid, ppid, pgid, state, args] = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line) ?? [];
      return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), state: state?.[0], args };
    });
}

describe('processTable', () => {
  it('agrees with ps on ids, parents, groups, states and command lines', async () => {
    const shell = await startTree();
    const table = processTable();
    const tree = [table.find((row) => row.pid === shell.pid), ...descendantsOf(shell.pid ?? -1, table)];
    expect(tree.map((row) => row?.args)).toEqual([
      expect.stringMatching(/^sh -c /),
      `${process.execPath} -e ${program} an argument with spaces`,
    ]);
    // The table and ps read at two moments: a process may run (R) at one and sleep (S) at the other on its own, as
    // a busy machine showed for the node process. Those two compare as one; any other state must be the same.
    const settled = (state: string | undefined) => (state === 'R' || state === 'S' ? 'R or S' : state);
    const rows = tree.map((row) => ({ ...row, state: settled(row?.state[0]) }));
    const reference = psRows(rows.map((row) => row.pid ?? -1)).map((row) => ({ ...row, state: settled(row.state) }));
    expect(rows).toEqual(reference);
    expect(rows.map((row) => row.pgid)).toEqual([shell.pid, shell.pid]);
  });

  it('reads the state a process cannot leave on its own as ps does: stopped (T)', async () => {
    const shell = await startTree();
    const node = descendantsOf(shell.pid ?? -1)[0];
    expect(node?.args).toContain('an argument with spaces');
    process.kill(node?.pid ?? -1, 'SIGSTOP');
    // The kernel stops it asynchronously: wait for the table to say so, then ps must agree.
    await expect.poll(() => processOf(node?.pid ?? -1)?.state[0], { timeout: 10_000 }).toBe('T');
    expect(psRows([node?.pid ?? -1])[0]?.state).toBe('T');
  });

  it('finds the whole tree below a process, and no process above it', async () => {
    const shell = await startTree();
    const below = descendantsOf(process.pid).map((row) => row.pid);
    expect(below).toEqual(expect.arrayContaining([shell.pid, ...descendantsOf(shell.pid ?? -1).map((row) => row.pid)]));
    expect(below).not.toContain(process.pid);
    expect(below).not.toContain(process.ppid);
  });
});

describe('processOf', () => {
  it('describes a running process, and none once it has exited and been reaped', async () => {
    const shell = await startTree();
    const pid = shell.pid ?? -1;
    const row = processOf(pid);
    expect(row && isRunning(row)).toBe(true);
    expect(row?.ppid).toBe(process.pid);
    const exited = once(shell, 'exit');
    process.kill(-pid, 'SIGKILL');
    await exited;
    expect(processOf(pid)).toBeUndefined();
  });
});
