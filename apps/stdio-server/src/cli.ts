import { ConfigError } from '@search-mcp/shared';
import { callCommand } from './call-command.js';
import { parseCliArguments, usage, UsageError } from './cli-arguments.js';
import { doctorCommand } from './doctor-command.js';
import { listCommand } from './list-command.js';
import { searchCommand } from './search-command.js';
import { serveCommand } from './serve-command.js';
import { describeStartupError, version } from './startup.js';

async function main(): Promise<void> {
  let cli;
  try {
    cli = parseCliArguments(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`search-mcp: ${error.message}\n\n${usage}\n`);
      process.exit(2);
    }
    throw error;
  }
  try {
    switch (cli.command) {
      case 'help':
        process.stdout.write(`${usage}\n`);
        return;
      case 'version':
        process.stdout.write(`${version}\n`);
        return;
      case 'serve':
        await serveCommand(cli);
        return;
      case 'search':
        process.exitCode = await searchCommand(cli);
        return;
      case 'call':
        process.exitCode = await callCommand(cli);
        return;
      case 'list':
        process.exitCode = await listCommand(cli);
        return;
      case 'doctor':
        process.exitCode = await doctorCommand(cli);
        return;
    }
  } catch (error) {
    // One clear message and a non-zero exit: 2 for a wrong command line or config (nothing was started), 1 otherwise.
    process.stderr.write(
      `search-mcp: ${error instanceof UsageError ? `${error.message}\n\n${usage}` : describeStartupError(error)}\n`,
    );
    process.exit(error instanceof UsageError || ConfigError.isInstance(error) ? 2 : 1);
  }
}

void main();
