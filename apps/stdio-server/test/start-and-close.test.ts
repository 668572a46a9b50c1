import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { descendantsOf, fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWith } from './support/process-tree.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const slowServer = fixtureServerPath('stdio-fixture-server.mjs');

/** Whether the process exists at all: a zombie (exited, not yet reaped by anyone) still has its /proc entry. */
const exists = (pid: number) => existsSync(`/proc/${pid}`);
const marker = randomUUID();

/**
 * `search-mcp serve` with a backend that needs a minute to start: `initialize` does not wait for it (it names it as
 * still starting), and closed by its client (stdin EOF) meanwhile, by the time search-mcp has exited every process it
 * started is gone and reaped — the backend and the process watchdog, which would otherwise be left to init as a zombie
 * (and keep a client that waits for the whole tree waiting).
 */
describe.runIf(process.platform === 'linux')('serve with a backend still starting', { timeout: 60_000 }, () => {
  let directory: string;
  let config: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-close-starting-'));
    config = join(directory, 'config.json');
    const slow = {
      command: process.execPath,
      // The marker finds every process started for this server, including any started again while closing.
      args: [slowServer, '--startup-delay-ms', '60000', '--marker', marker],
      startupTimeoutMs: 120_000,
    };
    await writeFile(config, JSON.stringify({ mcpServers: { slow } }));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('initialize names it as starting; stdin EOF: exits 0, the backend and the watchdog gone, not even zombies', async () => {
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
    let stdout = '';
    const firstAnswer = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
    });
    // The client's initialize starts the backends (serve tells them what its one client can do).
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'close-test', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const answer = JSON.parse(await firstAnswer) as { id: number; result: { instructions: string } };
    expect(answer.id).toBe(1);
    // `slow` has never connected, so the handshake does not wait for it: it is named instead.
    expect(answer.result.instructions).toContain('Still starting (their own notes are not included): slow.');
    const backend = await backendPid;
    const watchdogs = descendantsOf(child.pid as number).filter((entry) => entry.args.includes('watchdog.cjs'));
    expect(watchdogs).toHaveLength(1);
    const watchdog = watchdogs[0]?.pid as number;
    expect(exists(backend)).toBe(true);

    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(stderr).not.toContain('fixture: ready');
    expect(exists(backend)).toBe(false);
    expect(exists(watchdog)).toBe(false);
    const marked = processesWith(marker);
    expect(marked, 'a process started for the backend (again, while closing?) outlived search-mcp').toEqual([]);
  });
});

describe('SEARCH_MCP_INSTRUCTIONS_WAIT_MS', () => {
  it('a value that is not whole milliseconds from 0 to 60000 is a usage error: exit 2, nothing started', async () => {
    const usageErrorOf = async (value: string) => {
      const child = spawn(process.execPath, [cli, 'serve', '--config', '/no/such/config.json'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, SEARCH_MCP_INSTRUCTIONS_WAIT_MS: value },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.stdout.resume();
      const [code] = await once(child, 'exit');
      return { code, stderr };
    };
    const values = ['soon', '-1', '1.5', '60001'];
    const failures = await Promise.all(values.map(usageErrorOf));
    // The variable is checked before the config is read: its error is the only one.
    expect(failures).toEqual(
      values.map((value) => ({
        code: 2,
        stderr: `search-mcp: SEARCH_MCP_INSTRUCTIONS_WAIT_MS must be whole milliseconds from 0 to 60000, not "${value}"\n`,
      })),
    );
  });
});
