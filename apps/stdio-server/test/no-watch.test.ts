/**
 * `--no-watch`, and secrets of a reloaded config, through the built `search-mcp`: two servers on one config file,
 * one watching it (the default) and one started with `--no-watch`, each with a real MCP client in proxy mode. One
 * edit adds a working server and one that prints its secret and fails. The watching one applies the edit (its
 * reload is also the marker that the edit has been seen and could have been applied) and never shows the secret;
 * the other says at start that hot reload is off and keeps listing the tools it started with. The config also lists
 * Search MCP itself, installed and run by path: skipped with a warning.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { descendantsOf, realServerFixturesDirectory } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const replayServer = resolve(here, 'fixtures/replay-server.mjs');
const recorded = (name: string) => join(realServerFixturesDirectory, `${name}.tools.json`);
/** Generous: the suite runs on 2 busy cores in CI. */
const deadlineMs = 30_000;
const stepTimeoutMs = 90_000;
/** Long enough to be masked (short values are not taken for secrets), and found nowhere else. */
const secret = 'leaky-secret-7f3c9a1e5b2d';

interface RunningServer {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  /** Resolves with the first stderr line holding `text`, from now on; rejects after the deadline. */
  logAfterNow(text: string): Promise<string>;
}

let directory: string;
let configFile: string;
let watching: RunningServer;
let notWatching: RunningServer;

function replayEntry(fixture: string) {
  return { command: process.execPath, args: [replayServer, recorded(fixture)] };
}

/** A server that prints its secret (as a server echoing its settings might) and exits before answering. */
const leakyEntry = {
  command: process.execPath,
  args: ['-e', 'process.stderr.write(`token is ${process.env.LEAKY_TOKEN}\\n`); process.exit(3)'],
  env: { LEAKY_TOKEN: secret },
};

async function startServer(args: string[], env: Record<string, string>): Promise<RunningServer> {
  let stderr = '';
  const listeners = new Set<() => void>();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--config', configFile, '--mode', 'proxy', ...args],
    cwd: directory,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...env },
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of [...listeners]) listener();
  });
  const logAfterNow = (text: string): Promise<string> => {
    const start = stderr.length;
    return new Promise((resolve, reject) => {
      const check = () => {
        const line = stderr
          .slice(start)
          .split('\n')
          .find((entry) => entry.includes(text));
        if (line === undefined) return;
        cleanup();
        resolve(line);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no "${text}" on stderr within ${deadlineMs} ms; stderr since:\n${stderr.slice(start)}`));
      }, deadlineMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  };
  const client = new Client({ name: 'no-watch-test', version: '1' });
  return { client, transport, stderr: () => stderr, logAfterNow };
}

const toolNames = async (server: RunningServer) => (await server.client.listTools()).tools.map((tool) => tool.name);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-no-watch-'));
  configFile = join(directory, 'mcp-servers.json');
  // `self` is Search MCP itself, installed and run by path (as `init` writes it): skipped, never started.
  const self = { command: 'node', args: [join(directory, 'node_modules/@search-mcp/cli/dist/cli.js')] };
  await writeFile(configFile, JSON.stringify({ mcpServers: { thinking: replayEntry('sequential-thinking'), self } }));

  // SEARCH_MCP_WATCH is set for both, so only the flag can turn the second one's watching off.
  const environment = { SEARCH_MCP_WATCH: '1' };
  watching = await startServer(['--log-level', 'debug'], environment);
  notWatching = await startServer(['--no-watch'], environment);
  const ready = [
    watching.logAfterNow('watching the config file'),
    watching.logAfterNow('backends settled'),
    notWatching.logAfterNow('hot reload is off'),
    notWatching.logAfterNow('backends settled'),
  ];
  await Promise.all([watching.client.connect(watching.transport), notWatching.client.connect(notWatching.transport)]);
  await Promise.all(ready);
}, stepTimeoutMs);

afterAll(async () => {
  await Promise.allSettled([watching?.client.close(), notWatching?.client.close()]);
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('search-mcp serve --no-watch', () => {
  it('says at start that hot reload is off and why', async () => {
    const line = notWatching
      .stderr()
      .split('\n')
      .find((entry) => entry.includes('hot reload is off'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 'info', file: configFile, because: '--no-watch' });
    expect(notWatching.stderr()).not.toContain('watching the config file');
    expect(await toolNames(notWatching)).toEqual(['thinking__sequentialthinking']);
  });

  it('skips an entry that runs an installed Search MCP by path, with a warning', () => {
    const warning = notWatching
      .stderr()
      .split('\n')
      .find((entry) => entry.includes('config warning'));
    expect(JSON.parse(warning ?? '{}')).toMatchObject({
      level: 'warn',
      warning: expect.stringMatching(/^mcpServers\.self: skipped: it runs Search MCP itself /),
    });
  });

  it(
    'does not apply an edit that the watching server applies, and no reload masks a secret less',
    async () => {
      const reloaded = watching.logAfterNow('config reloaded:');
      const failed = watching.logAfterNow('server started by the reload failed');
      await writeFile(
        configFile,
        JSON.stringify({
          mcpServers: {
            thinking: replayEntry('sequential-thinking'),
            brave: replayEntry('brave-search'),
            leaky: leakyEntry,
          },
        }),
      );
      expect(await reloaded).toContain('config reloaded: added brave, leaky; removed none; changed none (1 unchanged)');
      expect(JSON.parse(await failed)).toMatchObject({ level: 'warn', server: 'leaky', reason: expect.any(String) });
      expect((await toolNames(watching)).sort()).toEqual([
        'brave__brave_local_search',
        'brave__brave_web_search',
        'thinking__sequentialthinking',
      ]);
      // The leaky server did print its secret, and it reached the log only masked.
      expect(watching.stderr()).toContain('token is ***');
      expect(watching.stderr()).not.toContain(secret);

      // The edit has been seen and applied next door; here nothing changed and nothing was started.
      expect(await toolNames(notWatching)).toEqual(['thinking__sequentialthinking']);
      expect(notWatching.stderr()).not.toContain('config reloaded');
      const children = descendantsOf(notWatching.transport.pid ?? -1).map((entry) => entry.args);
      expect(children.some((args) => args.includes('brave-search.tools.json'))).toBe(false);
      expect(children.some((args) => args.includes('sequential-thinking.tools.json'))).toBe(true);
    },
    stepTimeoutMs,
  );
});
