import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../test/cli-process.js';
import { cliEntry, request, temporaryDirectory } from '../test/http-test-support.js';
import { parseCommandLine, UsageError } from './command-line.js';
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
    // Independent processes: started together rather than one after the other.
    const outputs = await Promise.all(['--version', '-v'].map((flag) => run(process.execPath, [cliEntry, flag])));
    for (const { stdout } of outputs) expect(stdout).toBe(`${manifest.version}\n`);
  });

  it('prints the usage on --help, and a usage error with exit code 2', async () => {
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
    // Every usage error comes from parseCommandLine, which cli.ts turns into the message, the usage and exit code 2.
    // Each start of the binary loads the whole server before it reads its arguments (1.7 s of CPU): the mistakes are
    // checked against the parser here, and the binary shows the exit code and the output for one of them.
    for (const args of mistakes) {
      const error = (() => {
        try {
          parseCommandLine(args);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect([args.join(' '), error instanceof UsageError]).toEqual([args.join(' '), true]);
      expect((error as Error).message).toMatch(/^.+$/);
    }
    const [help, failure] = await Promise.all([
      run(process.execPath, [cliEntry, '--help']),
      run(process.execPath, [cliEntry, '--port', 'x']).catch((error: { code: number; stderr: string }) => error),
    ]);
    expect(help.stdout).toContain('--max-sessions-per-token N');
    expect(help.stdout).toContain('--max-listen-streams-per-token N');
    expect(help.stdout).toContain('--no-watch');
    expect(help.stdout).toContain('--public-url URL');
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stderr: string }).stderr).toMatch(
      /^search-mcp-http: --port must be a number from 0 to 65535\n\nsearch-mcp-http: Search MCP over/,
    );
  });

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
