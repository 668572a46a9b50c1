import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from './support/process-tree.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const slowServer = fileURLToPath(
  new URL('../../../packages/client-manager/test/fixtures/stdio-fixture-server.mjs', import.meta.url),
);

/** Whether the process exists at all: a zombie (exited, not yet reaped by anyone) still has its /proc entry. */
const exists = (pid: number) => existsSync(`/proc/${pid}`);

/**
 * `search-mcp serve` closed by its client (stdin EOF) while a backend is still starting: by the time search-mcp has
 * exited, every process it started is gone and reaped — the backend and the process watchdog, which would otherwise
 * be left to init as a zombie (and keep a client that waits for the whole tree waiting).
 */
describe.runIf(process.platform === 'linux')('serve closed while a backend is starting', { timeout: 60_000 }, () => {
  let directory: string;
  let config: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-close-starting-'));
    config = join(directory, 'config.json');
    const slow = {
      command: process.execPath,
      args: [slowServer, '--startup-delay-ms', '60000'],
      startupTimeoutMs: 120_000,
    };
    await writeFile(config, JSON.stringify({ mcpServers: { slow } }));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('stdin EOF: exits 0, and neither the starting backend nor the watchdog is left, not even as a zombie', async () => {
    const child = spawn(process.execPath, [cli, 'serve', '--config', config, '--log-level', 'debug', '--no-watch'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = once(child, 'exit');
    let stderr = '';
    // The fixture names its pid on stderr as it starts; search-mcp logs its backends' stderr lines at debug level.
    const backendPid = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the backend did not start; stderr: ${stderr}`)), 30_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /fixture: starting \(pid (\d+)\)/.exec(stderr);
        if (found) {
          clearTimeout(timer);
          resolve(Number(found[1]));
        }
      });
    });
    child.stdout.resume();
    // The client's initialize starts the backends (serve tells them what its one client can do).
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'close-test', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const backend = await backendPid;
    const watchdogs = processTree(child.pid as number).filter((entry) => entry.args.includes('watchdog.cjs'));
    expect(watchdogs).toHaveLength(1);
    const watchdog = watchdogs[0]?.pid as number;
    expect(exists(backend)).toBe(true);

    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(stderr).not.toContain('fixture: ready');
    expect(exists(backend)).toBe(false);
    expect(exists(watchdog)).toBe(false);
  });
});
