import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fixtureServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function runCli(args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function hasScript(): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('the search-mcp command line', () => {
  let directory: string;
  let config: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-cli-'));
    config = join(directory, 'config.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          github: fixtureServer('stdio-fixture-server.mjs'),
          broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
          off: fixtureServer('stdio-fixture-server.mjs', [], { enabled: false }),
        },
      }),
    );
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('prints the version of its package.json', async () => {
    const packageJson = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  });

  it('answers a mistyped flag or command with one line, a suggestion and a --help hint, not the whole help', async () => {
    expect(await runCli(['--confg', config])).toEqual({
      code: 2,
      stdout: '',
      stderr: "search-mcp: unknown option --confg; did you mean --config?\nRun 'search-mcp --help' for usage.\n",
    });
    expect(await runCli(['lsit'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `search-mcp: unknown command "lsit"; did you mean "list"?\nRun 'search-mcp --help' for usage.\n`,
    });
  });

  it('refuses list --server with an id the config does not have, before starting anything', async () => {
    const outcome = await runCli(['list', '--server', 'githb', '--config', config]);
    expect(outcome).toEqual({
      code: 2,
      stdout: '',
      stderr: `search-mcp: no server "githb" in ${config}; did you mean "github"? (servers: github, broken, off)\n`,
    });
  });

  it('lists the tools of one server, and fails when the named server is not running or disabled', async () => {
    const good = await runCli(['list', '--server', 'GitHub', '--config', config]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('github:echo');
    expect(good.stdout).not.toContain('Not connected');
    const broken = await runCli(['list', '--server', 'broken', '--config', config]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('0 tools');
    expect(broken.stderr).toMatch(/^search-mcp: server "broken" is failed/);
    const off = await runCli(['list', '--server', 'off', '--config', config]);
    expect(off).toMatchObject({ code: 1, stderr: `search-mcp: server "off" is disabled in ${config}\n` });
  });

  it('says which servers are down when it searches', async () => {
    const outcome = await runCli(['search', 'echo', '--config', config]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('github:echo');
    expect(outcome.stdout).toContain(
      'Not connected (their tools are missing): broken. Run search-mcp doctor to see why.',
    );
  });

  it('doctor prints the whole reason of each failure, wrapped, with a fix for the common ones', async () => {
    const unset = join(directory, 'unset.json');
    const variable = 'SEARCH_MCP_DOCTOR_TEST_VARIABLE_THAT_IS_NOT_SET_ANYWHERE';
    await writeFile(
      unset,
      JSON.stringify({ mcpServers: { github: { command: 'npx', env: { TOKEN: `\${${variable}}` } } } }),
    );
    const text = await runCli(['doctor', '--config', unset]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`Config: ${unset} (1 server, mode meta)`);
    const why = text.stdout.slice(text.stdout.indexOf('Why:'));
    expect(why.replace(/\s+/g, ' ')).toContain(
      `github: mcpServers.github.env.TOKEN: environment variable ${variable} is not set fix: set ${variable} where the MCP client starts search-mcp`,
    );
    expect(Math.max(...why.split('\n').map((line) => line.length))).toBeLessThanOrEqual(120);
    const json = await runCli(['doctor', '--json', '--config', unset]);
    const report = JSON.parse(json.stdout) as { servers: Array<{ id: string; lastError: string; hint: string }> };
    expect(report.servers[0]).toMatchObject({ id: 'github', hint: expect.stringMatching(/^set SEARCH_MCP_DOCTOR/) });
  });

  it.runIf(hasScript())(
    'serve in a terminal says it is waiting for an MCP client on stdin; Ctrl-C stops it',
    async () => {
      const empty = join(directory, 'empty.json');
      await writeFile(empty, JSON.stringify({ mcpServers: {} }));
      // `script` gives search-mcp a terminal as stdin, as when someone runs it by hand. `exec`: no shell between
      // them, so the exit status `script -e` reports is search-mcp's own, whatever /bin/sh does with a Ctrl-C.
      const terminal = spawn(
        'script',
        ['-qec', `exec "${process.execPath}" "${cli}" --config "${empty}" --log-level warn`, '/dev/null'],
        {
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let seen = '';
      const waiting = new Promise<void>((resolve) => {
        terminal.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('waiting for an MCP client on stdin')) resolve();
        });
      });
      const exited = once(terminal, 'exit');
      await waiting;
      terminal.stdin.write('\u0003');
      expect(await exited).toEqual([0, null]);
      expect(seen).toContain('search-mcp: waiting for an MCP client on stdin.');
    },
  );
});
