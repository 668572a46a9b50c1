import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The fixture servers, and `fixtureServer()` / `startHttpFixture()` to run them, are in @search-mcp/test-kit.
const require = createRequire(import.meta.url);

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

/**
 * Polls until `check` returns true; fails with `what` after `timeoutMs`. The default bound is only for a test that
 * would otherwise hang: on a loaded 2-core machine running every package's tests at once, a restart or a process start
 * took more than 10 s, so it stays well above that and below the 60 s test timeout.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
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
