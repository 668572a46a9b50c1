import { parseArgs } from 'node:util';
import { configDefaults, type LogLevel, logLevels } from '@search-mcp/shared';
import { closestName } from './closest-name.js';
import { UsageError } from './usage-error.js';

export type CommandName = 'serve' | 'search' | 'call' | 'list' | 'doctor' | 'help' | 'version';

export interface CliArguments {
  command: CommandName;
  positionals: string[];
  config?: string;
  mode?: 'meta' | 'proxy';
  project?: string;
  logLevel?: LogLevel;
  json: boolean;
  limit?: number;
  server?: string;
}

const commands: readonly CommandName[] = ['serve', 'search', 'call', 'list', 'doctor', 'help', 'version'];

const options = {
  config: { type: 'string', short: 'c' },
  mode: { type: 'string' },
  project: { type: 'string' },
  'log-level': { type: 'string' },
  json: { type: 'boolean', default: false },
  limit: { type: 'string', short: 'n' },
  server: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

export const usage = `search-mcp: one MCP server in front of all your MCP servers

Usage:
  search-mcp [serve]                 run the stdio MCP server (what AI clients start)
  search-mcp search <query…>         find tools   [--limit N] [--json]
  search-mcp call <toolKey> [JSON]   run a tool   [--json]
  search-mcp list                    list tools   [--server ID] [--json]
  search-mcp doctor                  check the config, connect every server, show the context saved [--json]

Options:
  --config PATH        config file (default: $SEARCH_MCP_CONFIG, ./config/mcp-servers.json,
                       ~/.config/search-mcp/config.json)
  --mode meta|proxy    what tools/list shows (default: exposure.mode, else meta)
  --project ID         the project of requests that name none
  --log-level LEVEL    debug | info | warn | error | silent (logs go to stderr)
  -h, --help           this text
  -v, --version        the version`;

/** Reads the command line; a mistake is a `UsageError` of one line, with "did you mean" where a name is close. */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  checkOptionNames(argv);
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof options }>
  >;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  const { values, positionals } = parsed;
  let command: CommandName = 'serve';
  const first = positionals[0];
  if (first !== undefined) {
    if (!commands.includes(first as CommandName)) {
      const suggestion = closestName(first, commands);
      throw new UsageError(`unknown command "${first}"${suggestion ? `; did you mean "${suggestion}"?` : ''}`);
    }
    command = first as CommandName;
    positionals.shift();
  }
  if (values.help) command = 'help';
  if (values.version) command = 'version';
  const result: CliArguments = { command, positionals, json: values.json ?? false };
  if (values.config !== undefined) result.config = values.config;
  if (values.project !== undefined) result.project = values.project;
  if (values.server !== undefined) result.server = values.server;
  if (values.mode !== undefined) {
    if (values.mode !== 'meta' && values.mode !== 'proxy')
      throw new UsageError(`--mode must be meta or proxy, not "${values.mode}"`);
    result.mode = values.mode;
  }
  if (values['log-level'] !== undefined) {
    if (!logLevels.includes(values['log-level'] as LogLevel))
      throw new UsageError(`--log-level must be one of ${logLevels.join(', ')}, not "${values['log-level']}"`);
    result.logLevel = values['log-level'] as LogLevel;
  }
  if (values.limit !== undefined) {
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > configDefaults.maxResultsLimit)
      throw new UsageError(`--limit must be a whole number from 1 to ${configDefaults.maxResultsLimit}`);
    result.limit = limit;
  }
  if (command === 'search' && positionals.length === 0)
    throw new UsageError('search needs a query, e.g. search-mcp search "read a file"');
  if (command === 'call' && positionals.length === 0)
    throw new UsageError('call needs a tool key, e.g. search-mcp call filesystem:read_text_file \'{"path":"/tmp/a"}\'');
  if (command === 'call' && positionals.length > 2)
    throw new UsageError('call takes a tool key and one JSON object of arguments (quote the JSON)');
  return result;
}

/** Unknown `--flags` (before a `--`), with the nearest known one. */
function checkOptionNames(argv: readonly string[]): void {
  const known = Object.keys(options);
  for (const argument of argv) {
    if (argument === '--') return;
    if (!argument.startsWith('--')) continue;
    const name = argument.slice(2).split('=')[0] ?? '';
    if (known.includes(name)) continue;
    const suggestion = closestName(name, known);
    throw new UsageError(`unknown option --${name}${suggestion ? `; did you mean --${suggestion}?` : ''}`);
  }
}

/** Node's parseArgs messages, shortened to what a person needs. */
function parseArgsMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${/'([^']+)'/.exec(message)?.[1] ?? ''}`.trim();
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return message.replace(/^Option '([^']+)'/, '$1').split('.')[0] ?? message;
  return message;
}
