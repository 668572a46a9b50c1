import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { fixtureServer, fixtureServersDirectory } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpClientManager } from '../index.js';
import { statusOf, useManagers } from '../../test/manager-harness.js';
import { waitFor } from '../../test/test-support.js';

const { createManager, temporaryDirectory } = useManagers();
/** The repository: the fixture server and the SDK it imports are read from it (read-only in the sandbox). */
const repository = resolve(fixtureServersDirectory, '../../../..');

interface Outcome {
  ok: boolean;
  code?: string;
  text?: string;
  visible?: boolean;
  count?: number;
}

async function attempt(manager: McpClientManager, id: string, tool: string, args: Record<string, unknown>) {
  const result = await manager.callTool(id, tool, args);
  const [content] = result.content as { type: string; text: string }[];
  return JSON.parse(content?.text ?? '{}') as Outcome;
}

/** Processes on this host whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.runIf(process.platform === 'linux')('a bubblewrap sandbox', () => {
  let listener: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => listener.close(() => done())));

  async function setUp() {
    const root = await temporaryDirectory('search-mcp-sandbox-');
    const home = join(root, 'home');
    await mkdir(join(home, '.ssh'), { recursive: true });
    await writeFile(join(home, '.ssh', 'id_rsa'), 'FAKE PRIVATE KEY');
    const writable = join(root, 'writable');
    const readable = join(root, 'readable');
    const outside = join(root, 'outside');
    await Promise.all([mkdir(writable), mkdir(readable), mkdir(outside)]);
    await writeFile(join(readable, 'notes.txt'), 'readable notes');
    const marker = randomUUID();
    const server = (sandboxed: boolean) =>
      fixtureServer('sandbox-probe-server.mjs', ['--marker', marker], {
        env: { HOME: home },
        // The home as working folder is only that: it must not bring the home into the sandbox.
        cwd: home,
        ...(sandboxed
          ? {
              sandbox: {
                kind: 'bubblewrap',
                paths: [repository, { path: writable, writable: true }, readable],
              },
            }
          : {}),
      });
    const { manager } = createManager({ sandboxed: server(true), plain: server(false) });
    await manager.startAll();
    return { manager, home, writable, readable, outside, marker };
  }

  it('refuses every escape the unsandboxed server makes, and allows what the config gives', async () => {
    const { manager, home, writable, readable, outside } = await setUp();
    expect(statusOf(manager, 'sandboxed')).toMatchObject({ state: 'running', sandbox: 'bubblewrap' });
    expect(statusOf(manager, 'plain')?.sandbox).toBeUndefined();
    const key = join(home, '.ssh', 'id_rsa');
    const escapes = {
      readSshKey: ['read_file', { path: key }],
      writeOutside: ['write_file', { path: join(outside, 'planted.txt'), text: 'x' }],
      writeReadOnly: ['write_file', { path: join(readable, 'planted.txt'), text: 'x' }],
      connectLoopback: ['connect', { host: '127.0.0.1', port }],
    } as const;
    for (const [name, [tool, args]] of Object.entries(escapes)) {
      const outcome = await attempt(manager, 'sandboxed', tool, args);
      expect(outcome, name).toMatchObject({ ok: false });
      console.info(`sandbox escape ${name}: refused with ${outcome.code}`);
    }
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(join(readable, 'planted.txt'))).toBe(false);
    expect(connections).toBe(0);
    const processes = await attempt(manager, 'sandboxed', 'process_visible', { pid: process.pid });
    expect(processes).toMatchObject({ ok: true, visible: false });
    expect(processes.count).toBeLessThanOrEqual(3);

    // What the config gives works.
    expect(await attempt(manager, 'sandboxed', 'read_file', { path: join(readable, 'notes.txt') })).toMatchObject({
      ok: true,
      text: 'readable notes',
    });
    const written = join(writable, 'result.txt');
    expect(await attempt(manager, 'sandboxed', 'write_file', { path: written, text: 'from the sandbox' })).toEqual({
      ok: true,
    });
    expect(readFileSync(written, 'utf8')).toBe('from the sandbox');

    // The same tools unsandboxed succeed: the refusals above are the sandbox's.
    expect(await attempt(manager, 'plain', 'read_file', { path: key })).toMatchObject({ ok: true });
    for (const [tool, args] of Object.values(escapes).slice(1)) {
      expect(await attempt(manager, 'plain', tool, args)).toMatchObject({ ok: true });
    }
    expect(connections).toBe(1);
    expect(await attempt(manager, 'plain', 'process_visible', { pid: process.pid })).toMatchObject({ visible: true });
  });

  it('ends the whole sandbox when the server is stopped', async () => {
    const { manager, marker } = await setUp();
    // bwrap, its pid 1 inside the namespace, the server, and the unsandboxed twin.
    expect(processesWith(marker).length).toBeGreaterThanOrEqual(3);
    await manager.stop('sandboxed');
    await manager.stop('plain');
    await waitFor(() => processesWith(marker).length === 0, 'every process of the sandbox to end');
  });

  it('runs npx -y @modelcontextprotocol/server-everything sandboxed', { timeout: 120_000 }, async () => {
    const { manager } = createManager(
      {
        everything: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-everything'],
          startupTimeoutMs: 90_000,
          sandbox: { kind: 'bubblewrap', network: true },
        },
      },
      {},
    );
    await manager.start('everything');
    const result = await manager.callTool('everything', 'echo', { message: 'from the sandbox' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: from the sandbox' }]);
  });

  it('fails to start with the package to install when bwrap is not on PATH', async () => {
    const empty = await temporaryDirectory('search-mcp-no-bwrap-');
    const { manager } = createManager({
      probe: fixtureServer('sandbox-probe-server.mjs', [], { env: { PATH: empty }, sandbox: { kind: 'bubblewrap' } }),
    });
    await expect(manager.start('probe')).rejects.toThrow(/bwrap.*not installed.*apt-get install bubblewrap/);
  });
});

describe('a docker sandbox', () => {
  const daemon = dockerDaemon();

  it.runIf(daemon !== true)('fails to start with a clear error when no docker daemon answers', async () => {
    const { manager } = createManager({
      probe: fixtureServer('sandbox-probe-server.mjs', [], { sandbox: { kind: 'docker', image: 'node:20-slim' } }),
    });
    await expect(manager.start('probe')).rejects.toThrow(/needs (a running docker daemon|the docker CLI)/);
  });

  it('runs a server with no network and read-only mounts', async (context) => {
    if (daemon !== true) {
      console.info(`docker sandbox test skipped: ${daemon}`);
      context.skip();
    }
    const root = await temporaryDirectory('search-mcp-docker-');
    await writeFile(join(root, 'notes.txt'), 'readable notes');
    const { manager } = createManager({
      probe: {
        command: 'node',
        args: [join(fixtureServersDirectory, 'sandbox-probe-server.mjs')],
        sandbox: { kind: 'docker', image: 'node:20-slim', paths: [repository, root] },
      },
    });
    await manager.start('probe');
    expect(await attempt(manager, 'probe', 'read_file', { path: join(root, 'notes.txt') })).toMatchObject({ ok: true });
    expect(await attempt(manager, 'probe', 'write_file', { path: join(root, 'x'), text: 'x' })).toMatchObject({
      ok: false,
    });
  });
});

/** `true` when a docker daemon answers, else why not. */
function dockerDaemon(): true | string {
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'pipe', timeout: 10_000 });
    return true;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    return `no docker daemon answers (${stderr.split('\n').at(-1) || (error as Error).message})`;
  }
}
