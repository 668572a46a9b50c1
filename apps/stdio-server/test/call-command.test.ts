/**
 * `search-mcp call server:tool` starts that server alone (README, "Commands"): a broken entry beside it is never
 * spawned and costs nothing, and the mistakes a person makes at the command line are explained.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli, everythingEntry } from './forwarding-support.js';
import { processesWith } from './support/process-tree.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function runCli(args: string[]): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr, ms: performance.now() - started });
    });
  });
}

describe('search-mcp call', () => {
  let directory: string;
  let config: string;
  let marker: string;
  let scopedMarker: string;
  let firstStart: string;
  const abandonedMarker = `search-mcp-call-test-abandoned-${process.pid}`;
  const interruptedMarker = `search-mcp-call-test-interrupted-${process.pid}`;
  const abandonedEntry = {
    command: process.execPath,
    args: ['-e', `setInterval(() => {}, 1e6) // ${abandonedMarker}`],
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-call-'));
    config = join(directory, 'config.json');
    marker = join(directory, 'hanging-was-spawned');
    scopedMarker = join(directory, 'scoped-was-spawned');
    firstStart = join(directory, 'once-pid');
    const node = process.execPath;
    const fixture = fixtureServerPath('stdio-fixture-server.mjs');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: node, args: [everythingEntry] },
          // Writes its pid when it starts and refuses (exit 4) to start a second time.
          once: { command: node, args: [fixture, '--only-first-start', firstStart] },
          interrupted: { command: node, args: ['-e', `setInterval(() => {}, 1e6) // ${interruptedMarker}`] },
          // A typo'd key: `node` without its script reads a program from stdin and never answers.
          typo: { command: node, arg: [everythingEntry], startupTimeoutMs: 60_000 },
          // Leaves a mark when spawned, then never answers either.
          hanging: {
            command: node,
            args: [
              '-e',
              `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'); setInterval(() => {}, 1e6)`,
            ],
            startupTimeoutMs: 60_000,
          },
          // Only project team-a sees it: a call with another --project must not start it.
          scoped: {
            command: node,
            args: [
              '-e',
              `require('node:fs').writeFileSync(${JSON.stringify(scopedMarker)}, 'x'); setInterval(() => {}, 1e6)`,
            ],
            projects: ['team-a'],
            startupTimeoutMs: 60_000,
          },
          // What `npx` prints for a package name npm does not have.
          missing: {
            command: node,
            args: [
              '-e',
              "process.stderr.write('npm error 404 Not Found - GET https://registry.npmjs.org/nope\\n'); process.exit(1)",
            ],
          },
        },
      }),
    );
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('answers from its server alone: the broken entries beside it are never spawned', async () => {
    const run = await runCli(['call', 'everything:get-sum', '{"a":20,"b":22}', '--config', config]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('42');
    expect(existsSync(marker)).toBe(false);
  });

  it('does not start a server the --project does not see; the catalog refuses the call', async () => {
    const run = await runCli(['call', 'scoped:anything', '{}', '--config', config, '--project', 'team-b']);
    expect(run.code).not.toBe(0);
    expect(run.stderr + run.stdout).toContain('scoped:anything');
    expect(existsSync(scopedMarker)).toBe(false);
  });

  it('names the servers and the nearest id for a server the config does not have', async () => {
    const run = await runCli(['call', 'evrything:get-sum', '{"a":1,"b":2}', '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`no server "evrything" in ${config}; did you mean "everything"?`);
    expect(run.stderr).toContain('(servers: everything, once, interrupted, typo, hanging, scoped, missing)');
    expect(existsSync(marker)).toBe(false);
  });

  it("lists the server's nearest tools for a tool it does not have", async () => {
    const typo = await runCli(['call', 'everything:get-sun', '{"a":1,"b":2}', '--config', config]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('Tool not found: everything:get-sun. Did you mean: everything:get-sum');
    const unrelated = await runCli(['call', 'everything:translate', '--config', config]);
    expect(unrelated.code).toBe(1);
    expect(unrelated.stderr).toMatch(/Tool not found: everything:translate \(MCP server 'everything' has: \S+/);
    expect(existsSync(marker)).toBe(false);
  });

  it('says why its server did not start, and what to do about it', async () => {
    const run = await runCli(['call', 'missing:anything', '--config', config]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("MCP server 'missing' exited during start-up (exit code 1)");
    expect(run.stderr).toContain('fix: npm has no such package');
    expect(existsSync(marker)).toBe(false);
  });

  it('uses the process it started before the runtime loaded (README, "Commands")', async () => {
    // `once` refuses a second start: the call succeeds only if the runtime adopted the process started first.
    const run = await runCli(['call', 'once:echo', '{"message":"early"}', '--config', config, '--log-level', 'debug']);
    expect(run.stderr).toContain('adopted the process started before the manager');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Echo: early');
  });

  it('ends the server it started early when the config turns out invalid', async () => {
    // Only the full parse sees that `search` is wrong (a usage error after the server was spawned).
    const invalid = join(directory, 'invalid.json');
    await writeFile(invalid, JSON.stringify({ mcpServers: { abandoned: abandonedEntry }, search: 'not an object' }));
    const run = await runCli(['call', 'abandoned:echo', '{}', '--config', invalid]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('search: expected object');
    // Its command line names this marker from its spawn on, whether or not it got to run.
    await vi.waitFor(() => expect(processesWith(abandonedMarker)).toEqual([]), { timeout: 20_000, interval: 50 });
  });

  it('ends the server it started early when interrupted while it still loads (Ctrl-C)', async () => {
    const child = spawn(process.execPath, [cli, 'call', 'interrupted:anything', '{}', '--config', config], {
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    // Spawned within the CLI's first milliseconds, long before the runtime has loaded.
    await vi.waitFor(() => expect(processesWith(interruptedMarker)).not.toEqual([]), { timeout: 20_000, interval: 5 });
    child.kill('SIGINT');
    const [code, signal] = await exited;
    // Ended by the signal (still loading) or exit 130 (its shutdown had begun): either way, as interrupted. That the
    // early handler alone ends it is checked without the CLI in prestart-signals.test.ts.
    expect(code === 130 || signal === 'SIGINT').toBe(true);
    await vi.waitFor(() => expect(processesWith(interruptedMarker)).toEqual([]), { timeout: 20_000, interval: 50 });
  });
});
