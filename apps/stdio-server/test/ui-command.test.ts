/**
 * `search-mcp ui` through the built CLI, as a person runs it (with `--no-open`): it prints the console's address with a
 * one-time code, the code is traded once for an admin token (its second use gets 401), and that token reads the
 * servers of the config (server-everything). Ctrl-C (SIGINT) ends it with every backend.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const require = createRequire(import.meta.url);
const everythingEntry = (() => {
  const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const bin = (require(manifestPath) as { bin: Record<string, string> }).bin;
  return join(dirname(manifestPath), Object.values(bin)[0] as string);
})();

let directory: string;
let child: ChildProcess;
let stderr = '';
let consoleUrl: URL;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-ui-'));
  const configFile = join(directory, 'config.json');
  await writeFile(
    configFile,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry] } } }),
  );
  child = spawn(process.execPath, [cli, 'ui', '--config', configFile, '--no-open'], {
    cwd: directory,
    env: { ...process.env, BROWSER: '', CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const line = await new Promise<string>((resolveLine, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const found = /^Console: (\S+)$/m.exec(stdout);
      if (found?.[1]) resolveLine(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`search-mcp ui exited (${code}) before printing:\n${stderr}`)));
  });
  consoleUrl = new URL(line);
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGINT');
    await exited;
  }
  await rm(directory, { recursive: true, force: true });
});

describe('search-mcp ui', () => {
  it('prints a loopback console address with a one-time code', () => {
    expect(consoleUrl.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(consoleUrl.pathname).toBe('/ui/');
    expect(consoleUrl.hash).toMatch(/^#code=[A-Za-z0-9_-]{43}$/);
  });

  it('serves the console there', async () => {
    const page = await fetch(new URL('/ui/', consoleUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('trades the code once for an admin token that reads the servers', async () => {
    const code = consoleUrl.hash.slice('#code='.length);
    const trade = () =>
      fetch(new URL('/ui/session', consoleUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
    const first = await trade();
    expect(first.status).toBe(200);
    const { token } = (await first.json()) as { token: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const servers = await fetch(new URL('/v1/servers', consoleUrl), { headers: { authorization: `Bearer ${token}` } });
    expect(servers.status).toBe(200);
    const body = (await servers.json()) as { servers: Array<{ id: string }> };
    expect(body.servers.map((server) => server.id)).toEqual(['everything']);
    // An admin token: the admin routes answer.
    const config = await fetch(new URL('/v1/config', consoleUrl), { headers: { authorization: `Bearer ${token}` } });
    expect(config.status).toBe(200);

    const second = await trade();
    expect(second.status).toBe(401);
  });

  it('ends on Ctrl-C (SIGINT) with exit code 0', async () => {
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 30_000);
});
