import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArguments } from './cli-arguments.js';
import type { CliLifecycle } from './cli-lifecycle.js';
import { loadRuntime } from './startup.js';

let directory: string;
let configFile: string;
const startSecret = 'start-secret-5d1e8a3c9f';
const reloadSecret = 'reload-secret-2b7f4e6a0c';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-startup-'));
  configFile = join(directory, 'mcp-servers.json');
  const server = { command: process.execPath, args: ['-e', ''], env: { API_TOKEN: startSecret } };
  await writeFile(configFile, JSON.stringify({ mcpServers: { one: server } }));
});

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

/** What a command's lifecycle does with what startup hands it: closes it at the end. */
function testLifecycle(): CliLifecycle & { closeAll(): Promise<void> } {
  const closers: Array<() => Promise<void>> = [];
  return {
    onClose: (close) => void closers.push(close),
    useLogger: () => {},
    shutdown: async () => {},
    shuttingDown: false,
    async closeAll() {
      for (const close of closers.toReversed()) await close();
    },
  };
}

describe('loadRuntime', () => {
  it('logs to stderr with the config secrets masked, and those its redactor learns later (a reload) too', async () => {
    const lifecycle = testLifecycle();
    const written: string[] = [];
    const write = process.stderr.write;
    // The logger writes JSON lines to stderr: keep them here for the length of this test.
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const loaded = await loadRuntime(parseCliArguments(['--config', configFile]), 'info', lifecycle);
      loaded.logger.info(`started with ${startSecret}`);
      loaded.logger.info(`before the reload: ${reloadSecret}`);
      loaded.redactor.add([reloadSecret]);
      loaded.logger.warn('a reloaded server failed', { reason: `bad token ${reloadSecret}` });
    } finally {
      process.stderr.write = write;
      await lifecycle.closeAll();
    }
    const lines = written
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.msg, line.reason])).toEqual([
      ['started with ***', undefined],
      // Not a secret of any config yet: shown as it is.
      [`before the reload: ${reloadSecret}`, undefined],
      ['a reloaded server failed', 'bad token ***'],
    ]);
  });
});
