import type { PrestartedServer } from '@search-mcp/client-manager/prestart';
import { ConfigError, errorMessage } from '@search-mcp/shared';
import { appVersion } from './app-version.js';
import { type CliArguments, parseCliArguments, usage } from './cli-arguments.js';
import type { CliLifecycle } from './cli-lifecycle.js';
import { UsageError } from './usage-error.js';

const helpHint = "Run 'search-mcp --help' for usage.";

/** One line for a failure, a hint where it helps, and the exit code: 2 for a wrong command line or config. */
function describeFailure(error: unknown): { text: string; exitCode: number } {
  if (error instanceof UsageError)
    return { text: `search-mcp: ${error.message}${error.showHelpHint ? `\n${helpHint}` : ''}`, exitCode: 2 };
  if (ConfigError.isInstance(error)) return { text: `search-mcp: ${error.message}`, exitCode: 2 };
  return { text: `search-mcp: ${errorMessage(error)}`, exitCode: 1 };
}

/**
 * Runs a command; a number is its exit code, `undefined` means it keeps serving until shut down. Each command's
 * module is imported only when that command runs: `serve` must answer its client's first request soon after the
 * spawn, and the others' dependencies (the tokenizer and the 1.x SDK client of `doctor`, the client files of `init`)
 * would only delay it.
 */
async function run(
  cli: CliArguments,
  lifecycle: CliLifecycle,
  prestarted: PrestartedServer[],
): Promise<number | undefined> {
  switch (cli.command) {
    case 'serve': {
      const { serveCommand } = await import('./commands/serve-command.js');
      await serveCommand(cli, lifecycle);
      return undefined;
    }
    case 'search':
      return (await import('./commands/search-command.js')).searchCommand(cli, lifecycle);
    case 'call':
      return (await import('./commands/call-command.js')).callCommand(cli, lifecycle, prestarted);
    case 'list':
      return (await import('./commands/list-command.js')).listCommand(cli, lifecycle);
    case 'doctor':
      return (await import('./commands/doctor-command.js')).doctorCommand(cli, lifecycle);
    case 'init':
      return (await import('./commands/init/init-command.js')).initCommand(cli);
    case 'auth':
      return (await import('./commands/auth-command.js')).authCommand(cli, lifecycle);
    case 'secret':
      return (await import('./commands/secret-command.js')).secretCommand(cli);
    case 'approve':
      return (await import('./commands/approve-command.js')).approveCommand(cli);
    case 'ui': {
      await (await import('./commands/ui-command.js')).uiCommand(cli, lifecycle);
      return undefined;
    }
    case 'help':
    case 'version':
      return Promise.resolve(0);
  }
}

/** Runs the command line; `prestarted` is the server a `call` started before this module loaded (`cli.ts`). */
export async function main(prestarted: PrestartedServer[]): Promise<void> {
  let cli: CliArguments;
  try {
    cli = parseCliArguments(process.argv.slice(2));
  } catch (error) {
    const { text, exitCode } = describeFailure(error);
    process.stderr.write(`${text}\n`);
    process.exitCode = exitCode;
    return;
  }
  if (cli.command === 'help' || cli.command === 'version') {
    process.stdout.write(`${cli.command === 'help' ? usage : appVersion}\n`);
    return;
  }
  // Every way out goes through here: signals, stdin EOF, a closed stdout, the command's end, a failure. Imported
  // here, not above: it brings the runtime, which `--help` and `--version` have no use for.
  const { startCliLifecycle } = await import('./cli-lifecycle.js');
  const lifecycle = startCliLifecycle({ stoppedBySignal: cli.command === 'serve' || cli.command === 'ui' });
  let exitCode: number | undefined;
  try {
    exitCode = await run(cli, lifecycle, prestarted);
  } catch (error) {
    // A failure caused by the shutdown itself (a call cut off by SIGINT) is not news.
    if (lifecycle.shuttingDown) return;
    const failure = describeFailure(error);
    process.stderr.write(`${failure.text}\n`);
    exitCode = failure.exitCode;
  }
  if (exitCode !== undefined) await lifecycle.shutdown('done', exitCode);
}
