import { parseArgs } from 'node:util';
import { logLevels, type LogLevel } from '@search-mcp/shared';

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

export class UsageError extends Error {}

const commands: readonly CommandName[] = ['serve', 'search', 'call', 'list', 'doctor', 'help', 'version'];

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

export function parseCliArguments(argv: readonly string[]): CliArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: 'string', short: 'c' },
        mode: { type: 'string' },
        project: { type: 'string' },
        'log-level': { type: 'string' },
        json: { type: 'boolean', default: false },
        limit: { type: 'string', short: 'n' },
        server: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  let command: CommandName = 'serve';
  const first = positionals[0];
  if (first !== undefined) {
    if (!commands.includes(first as CommandName)) throw new UsageError(`unknown command "${first}"`);
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
      throw new UsageError(`--log-level must be one of ${logLevels.join(', ')}`);
    result.logLevel = values['log-level'] as LogLevel;
  }
  if (values.limit !== undefined) {
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50)
      throw new UsageError('--limit must be a whole number from 1 to 50');
    result.limit = limit;
  }
  if (command === 'search' && positionals.length === 0)
    throw new UsageError('search needs a query: search-mcp search "read a file"');
  if (command === 'call' && positionals.length === 0)
    throw new UsageError('call needs a tool key: search-mcp call filesystem:read_text_file \'{"path":"/tmp/a"}\'');
  return result;
}
