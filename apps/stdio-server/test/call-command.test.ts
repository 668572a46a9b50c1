/**
 * `search-mcp call server:tool` starts that server alone (README, "Commands"): a broken entry beside it is never
 * spawned and costs nothing, and the mistakes a person makes at the command line are explained.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, everythingEntry } from './forwarding-support.js';

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

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-call-'));
    config = join(directory, 'config.json');
    marker = join(directory, 'hanging-was-spawned');
    scopedMarker = join(directory, 'scoped-was-spawned');
    const node = process.execPath;
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: node, args: [everythingEntry] },
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
    expect(run.stderr).toContain('(servers: everything, typo, hanging, scoped, missing)');
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
});
