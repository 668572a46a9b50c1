import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fixtureServer, fixtureServerPath, fixtureServersDirectory } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, vi } from 'vitest';
import type { McpClientManager } from '../index.js';
import { type Managers, statusOf } from '../../test/manager-harness.js';
import { managerTest as it } from '../../test/manager-test.js';
import { waitFor } from '../../test/test-support.js';

// Every case has managers of its own (`managerTest`), so the cases of a sandbox run at once, each with its own
// folders, marker and servers. The one that sets SEARCH_MCP_STATE_DIR (read only for npx servers) is the only npx one.
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

describe.runIf(process.platform === 'linux').concurrent('a bubblewrap sandbox', () => {
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

  async function setUp(managers: Managers) {
    const root = await managers.temporaryDirectory('search-mcp-sandbox-');
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
    const { manager } = managers.createManager({ sandboxed: server(true), plain: server(false) });
    await manager.startAll();
    return { manager, home, writable, readable, outside, marker };
  }

  it('refuses every escape the unsandboxed server makes, and allows what the config gives', async ({
    expect,
    managers,
  }) => {
    const { manager, home, writable, readable, outside } = await setUp(managers);
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
    // The plain server's connect returns once the handshake is done; this process may accept it a moment later.
    await vi.waitFor(() => expect(connections).toBe(1), { timeout: 10_000 });
    expect(await attempt(manager, 'plain', 'process_visible', { pid: process.pid })).toMatchObject({ visible: true });
  });

  it('ends the whole sandbox when the server is stopped', async ({ expect, managers }) => {
    const { manager, marker } = await setUp(managers);
    // bwrap, its pid 1 inside the namespace, the server, and the unsandboxed twin.
    expect(processesWith(marker).length).toBeGreaterThanOrEqual(3);
    await manager.stop('sandboxed');
    await manager.stop('plain');
    await waitFor(() => processesWith(marker).length === 0, 'every process of the sandbox to end');
  });

  it('runs npx -y @modelcontextprotocol/server-everything sandboxed, and refuses it without network while its own npm cache is empty', {
    timeout: 120_000,
  }, async ({ expect, managers, onTestFinished }) => {
    // The server gets its own npm cache in the state folder, never the host's `~/.npm` (which unsandboxed npx runs).
    const state = await managers.temporaryDirectory('search-mcp-sandbox-state-');
    vi.stubEnv('SEARCH_MCP_STATE_DIR', state);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const npx = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] };
    const { manager } = managers.createManager({
      offline: { ...npx, sandbox: { kind: 'bubblewrap' } },
      everything: { ...npx, startupTimeoutMs: 90_000, sandbox: { kind: 'bubblewrap', network: true } },
    });
    await expect(manager.start('offline')).rejects.toThrow(
      /own npm cache .* is empty: start it once with "network": true/,
    );
    await manager.start('everything');
    const result = await manager.callTool('everything', 'echo', { message: 'from the sandbox' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: from the sandbox' }]);
    expect(existsSync(join(state, 'sandbox-npm-cache', 'everything', '_npx'))).toBe(true);
  });

  it('fails to start with the package to install when bwrap is not on PATH', async ({ expect, managers }) => {
    const empty = await managers.temporaryDirectory('search-mcp-no-bwrap-');
    const { manager } = managers.createManager({
      probe: fixtureServer('sandbox-probe-server.mjs', [], { env: { PATH: empty }, sandbox: { kind: 'bubblewrap' } }),
    });
    await expect(manager.start('probe')).rejects.toThrow(/bwrap.*not installed.*apt-get install bubblewrap/);
  });
});

describe.runIf(process.platform === 'linux').concurrent('a bubblewrap sandbox and the home folder', () => {
  async function makeHome(managers: Managers) {
    const root = await managers.temporaryDirectory('search-mcp-sandbox-home-');
    const home = join(root, 'home');
    await mkdir(join(home, '.ssh'), { recursive: true });
    const key = join(home, '.ssh', 'id_rsa');
    await writeFile(key, 'FAKE PRIVATE KEY');
    return { root, home, key };
  }

  const spellings: [string, (root: string, home: string) => Promise<string>][] = [
    ['with a trailing slash', async (_root, home) => `${home}/`],
    ['with /.', async (_root, home) => `${home}/.`],
    ['through ..', async (root) => `${root}/outside/../home`],
    [
      'through a symlink',
      async (root, home) => {
        const link = join(root, 'link-to-home');
        await symlink(home, link);
        return link;
      },
    ],
  ];

  it.for(spellings)('never binds a cwd that is the home spelled %s', async ([_how, spell], { expect, managers }) => {
    const { root, home, key } = await makeHome(managers);
    await mkdir(join(root, 'outside'));
    const cwd = await spell(root, home);
    const { manager } = managers.createManager({
      sandboxed: fixtureServer('sandbox-probe-server.mjs', [], {
        env: { HOME: home },
        cwd,
        sandbox: { kind: 'bubblewrap', paths: [repository] },
      }),
    });
    await manager.start('sandboxed');
    for (const path of [key, join(cwd, '.ssh', 'id_rsa')]) {
      expect(await attempt(manager, 'sandboxed', 'read_file', { path }), path).toMatchObject({ ok: false });
    }
  });

  it.for([['~'], ['/'], [`${homedir()}/`], ['~/..']])(
    'refuses the sandbox path %s at start',
    async ([path], { expect, managers }) => {
      const { home } = await makeHome(managers);
      const { manager } = managers.createManager({
        sandboxed: fixtureServer('sandbox-probe-server.mjs', [], {
          env: { HOME: home },
          sandbox: { kind: 'bubblewrap', paths: [repository, path] },
        }),
      });
      await expect(manager.start('sandboxed')).rejects.toThrow(/is the home folder or holds it/);
    },
  );

  it('binds only the file of a command in ~/.local/bin, not ~/.local (its state, its shares)', async ({
    expect,
    managers,
  }) => {
    const { home } = await makeHome(managers);
    const bin = join(home, '.local', 'bin');
    const secrets = join(home, '.local', 'state', 'search-mcp');
    await mkdir(bin, { recursive: true });
    await mkdir(secrets, { recursive: true });
    await writeFile(join(secrets, 'pins.json'), 'PRIVATE STATE');
    const command = join(bin, 'probe');
    await writeFile(
      command,
      `#!/usr/bin/env node\nawait import(${JSON.stringify(fixtureServerPath('sandbox-probe-server.mjs'))});\n`,
    );
    await chmod(command, 0o755);
    const { manager } = managers.createManager({
      sandboxed: { command, env: { HOME: home }, sandbox: { kind: 'bubblewrap', paths: [repository] } },
    });
    await manager.start('sandboxed');
    expect(await attempt(manager, 'sandboxed', 'read_file', { path: join(secrets, 'pins.json') })).toMatchObject({
      ok: false,
    });
  });
});

describe('a docker sandbox', () => {
  const daemon = dockerDaemon();

  it.runIf(daemon !== true)(
    'fails to start with a clear error when no docker daemon answers',
    async ({ expect, managers }) => {
      const { manager } = managers.createManager({
        probe: fixtureServer('sandbox-probe-server.mjs', [], { sandbox: { kind: 'docker', image: 'node:20-slim' } }),
      });
      await expect(manager.start('probe')).rejects.toThrow(/needs (a running docker daemon|the docker CLI)/);
    },
  );

  it('runs a server with no network and read-only mounts', async ({ expect, managers, skip }) => {
    if (daemon !== true) {
      console.info(`docker sandbox test skipped: ${daemon}`);
      skip();
    }
    const root = await managers.temporaryDirectory('search-mcp-docker-');
    await writeFile(join(root, 'notes.txt'), 'readable notes');
    const { manager } = managers.createManager({
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
