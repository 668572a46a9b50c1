/**
 * `search-mcp ui --no-open` (the stdio app's console command, docs/console.md "Signing in") as a child process: it
 * serves the console for a local config on 127.0.0.1 and prints the one-time URL (`Console: http://…/ui/#code=…`)
 * that signs a browser in without a token form.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everythingEntry, stdioCliEntry } from './real-server-entries.js';

export interface SearchMcpUiProcess {
  /** The URL it printed, with its one-time code. */
  consoleUrl: string;
  /** What it printed (stdout and stderr), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export async function startSearchMcpUi(): Promise<SearchMcpUiProcess> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-ui-'));
  const configFile = join(directory, 'mcp-servers.json');
  await writeFile(
    configFile,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry] } } }),
  );
  const child: ChildProcess = spawn(process.execPath, [stdioCliEntry, 'ui', '--config', configFile, '--no-open'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // No browser is opened whatever the flag does: CI has no display.
    env: { ...process.env, CI: '1', DISPLAY: '', BROWSER: '' },
  });
  const exited = once(child, 'exit');
  let output = '';
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const consoleUrl = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /Console: (http:\/\/127\.0\.0\.1:\d+\/ui\/#code=\S+)/.exec(output)?.[1];
        if (found) resolve(found);
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      void exited.then(() => reject(new Error(`search-mcp ui exited before printing its URL:\n${output}`)));
    });
    return { consoleUrl, output: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}
