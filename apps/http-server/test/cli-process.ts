/** Runs the built `search-mcp-http` (dist/cli.js) as a child process for the tests that need a real process. */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { cliEntry } from './http-test-support.js';

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr(): string;
  /** Resolves when stderr contains `text`. */
  waitForStderr(text: string | RegExp): Promise<void>;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

export async function startCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliProcess> {
  const child = spawn(process.execPath, [cliEntry, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const waitForStderr = (text: string | RegExp) =>
    new Promise<void>((resolve, reject) => {
      const found = () => (typeof text === 'string' ? stderr.includes(text) : text.test(stderr));
      if (found()) return resolve();
      const onData = () => {
        if (!found()) return;
        child.stderr.off('data', onData);
        resolve();
      };
      child.stderr.on('data', onData);
      void exited.then(() => reject(new Error(`exited before printing ${String(text)}:\n${stderr}`)));
    });
  await waitForStderr('search-mcp-http listening');
  const url = /"url":"(http:\/\/[^"]+)"/.exec(stderr)?.[1];
  if (!url) throw new Error(`no url in: ${stderr}`);
  return { child, url, stderr: () => stderr, waitForStderr, exited };
}

/** The process ids of the whole tree under `pid` (children, grandchildren, …), from `ps`. */
export function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((pair): pair is [number, number] => pair.length === 2 && pair.every(Number.isInteger));
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, ppid] of table) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** True while `pid` runs; an exited process that init has not reaped yet (a zombie) does not count. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command name in parentheses, which may itself contain spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The command line of `pid`, for messages. */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '(gone)';
  }
}
