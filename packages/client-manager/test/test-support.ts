import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const require = createRequire(import.meta.url);

/** A stdio server config running one of our fixture scripts with the current node. */
export function fixtureServer(script: string, args: string[] = [], extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [join(fixtures, script), ...args], ...extra };
}

/** The entry script of a real npm MCP server installed as a devDependency. */
export function realServerEntry(packageName: string): string {
  const packageJson = require.resolve(`${packageName}/package.json`);
  const manifest = require(packageJson) as { bin: Record<string, string> };
  const bin = Object.values(manifest.bin)[0];
  if (!bin) throw new Error(`${packageName} has no bin`);
  return join(dirname(packageJson), bin);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls until `check` returns true; fails with `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Collects log records, for asserting on warnings. */
export function createRecordingLogger() {
  const records: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
  const make = (bound: Record<string, unknown>): import('@search-mcp/shared').Logger => {
    const log =
      (level: string) =>
      (message: string, fields: Record<string, unknown> = {}) => {
        records.push({ level, message, fields: { ...bound, ...fields } });
      };
    return {
      debug: log('debug'),
      info: log('info'),
      warn: log('warn'),
      error: log('error'),
      child: (fields) => make({ ...bound, ...fields }),
    };
  };
  return { logger: make({}), records };
}

/**
 * Starts the 2026-07-28 fixture (`modern-server.mjs`) over Streamable HTTP with `args` (`--both`, `--tasks`) and
 * resolves with its URL (the line it prints once it listens). The caller kills the child.
 */
export async function startHttpFixture(...args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return startListeningFixture('modern-server.mjs', ['--http', ...args]);
}

/** Starts the hand-written HTTP fixture (`raw-http-server.mjs`) with `args`; the caller kills the child. */
export function startRawHttpFixture(...args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return startListeningFixture('raw-http-server.mjs', args);
}

async function startListeningFixture(script: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(fixtures, script), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (text: string) => {
      output += text;
      const match = /^listening (\S+)\n/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited (${code}) before listening`)));
  });
  return { child, url };
}
