import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../test/cli-process.js';
import { cliEntry, request, temporaryDirectory } from '../test/http-test-support.js';
import { packageVersion } from './version.js';

const run = promisify(execFile);
let directory: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  directory = await temporaryDirectory();
});

afterAll(async () => {
  await directory.remove();
});

describe('search-mcp-http command line', () => {
  it('prints the version from package.json', async () => {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(packageVersion).toBe(manifest.version);
    for (const flag of ['--version', '-v']) {
      const { stdout } = await run(process.execPath, [cliEntry, flag]);
      expect(stdout).toBe(`${manifest.version}\n`);
    }
  });

  it('prints the usage on --help, and a usage error with exit code 2', async () => {
    const { stdout } = await run(process.execPath, [cliEntry, '--help']);
    expect(stdout).toContain('--max-sessions-per-token N');
    expect(stdout).toContain('--max-listen-streams-per-token N');
    expect(stdout).toContain('--no-watch');
    expect(stdout).toContain('--public-url URL');
    const mistakes = [
      ['--port', 'x'],
      ['--max-sessions-per-token', '0'],
      ['--max-listen-streams', '1.5'],
      ['--mode', 'all'],
      ['--nonsense'],
      ['--no-watch=1'],
      ['--public-url', 'ftp://search.example'],
      ['--public-url', 'https://search.example/?from=proxy'],
    ];
    // Each mistake is its own process: they start together rather than eight in a row. Each start loads the whole
    // server before it reads its arguments (1.7 s of CPU), hence this test's own timeout on a busy 2-core machine.
    const failures = await Promise.all(
      mistakes.map((args) =>
        run(process.execPath, [cliEntry, ...args]).catch((error: { code: number; stderr: string }) => error),
      ),
    );
    for (const [index, args] of mistakes.entries()) {
      const failure = failures[index];
      expect([args.join(' '), (failure as { code: number }).code]).toEqual([args.join(' '), 2]);
      expect((failure as { stderr: string }).stderr).toMatch(
        /^search-mcp-http: .+\n\nsearch-mcp-http: Search MCP over/,
      );
    }
  }, 120_000);

  it('exits 2 when auth.oauth listens beyond loopback without --public-url (the URL tokens are minted for)', async () => {
    const config = join(directory.path, 'oauth.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: {}, auth: { oauth: { issuer: 'https://login.example.com' } } }),
    );
    const failure = (await run(process.execPath, [
      cliEntry,
      '--config',
      config,
      '--host',
      '0.0.0.0',
      '--port',
      '0',
    ]).catch((error: unknown) => error)) as { code: number; stderr: string };
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('auth.oauth: listening on 0.0.0.0, pass --public-url');
  });

  it('exits 2 with one line for a config it cannot read', async () => {
    const failure = (await run(process.execPath, [cliEntry, '--config', join(directory.path, 'missing.json')]).catch(
      (error: unknown) => error,
    )) as { code: number; stderr: string };
    expect(failure.code).toBe(2);
    expect(failure.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('first start without tokens', () => {
  it('generates a token, stores it for the user only, prints it once, and requires it', async () => {
    const config = join(directory.path, 'no-tokens.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    const args = ['--config', config, '--port', '0', '--log-level', 'info'];
    const first = await startCli(args);
    const tokenFile = join(directory.path, '.search-mcp-http-token');
    const token = (await readFile(tokenFile, 'utf8')).trim();
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect(first.stderr()).toContain(token);
    expect((await request(first.url, '/v1/tools', { token: null })).status).toBe(401);
    expect((await request(first.url, '/v1/tools', { token })).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual([0, null]);

    const second = await startCli(args);
    expect(second.stderr()).not.toContain(token);
    expect((await request(second.url, '/v1/tools', { token })).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual([0, null]);
  });
});
