/** Runs the built `search-mcp-http` (dist/cli.js) as a child process for the tests that need a real process. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { processOf } from '@search-mcp/test-kit';
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

/** The command line of `pid`, for messages. */
export function commandOf(pid: number): string {
  return processOf(pid)?.args ?? '(gone)';
}
