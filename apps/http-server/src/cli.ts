import { errorMessage } from '@search-mcp/shared';
import { type CommandLine, parseCommandLine, UsageError, usage } from './command-line.js';
import { serve } from './serve.js';
import { packageVersion } from './version.js';

function fail(message: string, code: number): never {
  process.stderr.write(`search-mcp-http: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  let commandLine: CommandLine;
  try {
    commandLine = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) fail(`${error.message}\n\n${usage}`, 2);
    throw error;
  }
  if (commandLine.command === 'help') {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (commandLine.command === 'version') {
    process.stdout.write(`${packageVersion}\n`);
    return;
  }
  await serve(commandLine, fail);
}

main().catch((error: unknown) => {
  // An unwritable token file or audit folder, or anything else at start-up: one line, not a stack trace.
  fail(errorMessage(error), 1);
});
