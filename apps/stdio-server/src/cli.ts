import { ConfigError, errorMessage } from '@search-mcp/shared';
import { appVersion } from './app-version.js';
import { type CliArguments, parseCliArguments, usage } from './cli-arguments.js';
import { type CliLifecycle, startCliLifecycle } from './cli-lifecycle.js';
import { callCommand } from './commands/call-command.js';
import { doctorCommand } from './commands/doctor-command.js';
import { initCommand } from './commands/init/init-command.js';
import { listCommand } from './commands/list-command.js';
import { searchCommand } from './commands/search-command.js';
import { serveCommand } from './commands/serve-command.js';
import { UsageError } from './usage-error.js';

const helpHint = "Run 'search-mcp --help' for usage.";

/** One line for a failure, a hint where it helps, and the exit code: 2 for a wrong command line or config. */
function describeFailure(error: unknown): { text: string; exitCode: number } {
  if (error instanceof UsageError)
    return { text: `search-mcp: ${error.message}${error.showHelpHint ? `\n${helpHint}` : ''}`, exitCode: 2 };
  if (ConfigError.isInstance(error)) return { text: `search-mcp: ${error.message}`, exitCode: 2 };
  return { text: `search-mcp: ${errorMessage(error)}`, exitCode: 1 };
}

/** Runs a command; a number is its exit code, `undefined` means it keeps serving until shut down. */
function run(cli: CliArguments, lifecycle: CliLifecycle): Promise<number | undefined> {
  switch (cli.command) {
    case 'serve':
      return serveCommand(cli, lifecycle).then(() => undefined);
    case 'search':
      return searchCommand(cli, lifecycle);
    case 'call':
      return callCommand(cli, lifecycle);
    case 'list':
      return listCommand(cli, lifecycle);
    case 'doctor':
      return doctorCommand(cli, lifecycle);
    case 'init':
      return initCommand(cli);
    case 'help':
    case 'version':
      return Promise.resolve(0);
  }
}

async function main(): Promise<void> {
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
  // Every way out goes through here: signals, stdin EOF, a closed stdout, the command's end, a failure.
  const lifecycle = startCliLifecycle({ stoppedBySignal: cli.command === 'serve' });
  let exitCode: number | undefined;
  try {
    exitCode = await run(cli, lifecycle);
  } catch (error) {
    // A failure caused by the shutdown itself (a call cut off by SIGINT) is not news.
    if (lifecycle.shuttingDown) return;
    const failure = describeFailure(error);
    process.stderr.write(`${failure.text}\n`);
    exitCode = failure.exitCode;
  }
  if (exitCode !== undefined) await lifecycle.shutdown('done', exitCode);
}

void main();
