import { startLocalConsole } from '@search-mcp/http/local-console';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';

/**
 * `search-mcp ui`: the web console for this config (docs/console.md) on 127.0.0.1, a free port unless `--port`, with
 * an admin token that lives in this process only. Prints the address with a one-time sign-in code on stdout and
 * opens it in the browser (not with `--no-open`, in CI, or on a machine without a display); runs until Ctrl-C.
 */
export async function uiCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<void> {
  const local = await startLocalConsole({
    ...(cli.config !== undefined ? { configPath: cli.config } : {}),
    ...(cli.port !== undefined ? { port: cli.port } : {}),
    ...(cli.logLevel !== undefined ? { logLevel: cli.logLevel } : {}),
    watch: cli.watch,
  });
  lifecycle.onClose(() => local.close());
  process.stdout.write(`Console: ${local.consoleUrl}\n`);
  process.stderr.write(
    `search-mcp ui: serving ${local.configPath} at ${local.url}/ui/ (the sign-in code works once, for 10 minutes). Ctrl-C stops it.\n`,
  );
  if (cli.open && canOpenBrowser(process.env)) await openInBrowser(local.consoleUrl);
}

/** No browser in CI, nor on a Linux machine without a display, unless `$BROWSER` names one. */
export function canOpenBrowser(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.BROWSER?.trim()) return true;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') return false;
  if (process.platform === 'linux') return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  return true;
}

async function openInBrowser(url: string): Promise<void> {
  try {
    const { default: open } = await import('open');
    const browser = process.env.BROWSER?.trim();
    const child = await open(url, browser ? { app: { name: browser } } : {});
    child.on('error', () => {
      // No browser after all: the printed address is the way.
    });
  } catch {
    // Same.
  }
}
