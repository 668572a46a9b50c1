import { parseArgs } from 'node:util';
import { configDefaults, type LogLevel, logLevels, type SearchStrategy } from '@search-mcp/shared';
import type { McpClientName } from '@search-mcp/shared/node';
import { cliOptions } from './cli-option-table.js';
import { closestName } from './closest-name.js';
import { UsageError } from './usage-error.js';

export type CommandName =
  | 'serve'
  | 'search'
  | 'call'
  | 'list'
  | 'doctor'
  | 'init'
  | 'auth'
  | 'ui'
  | 'secret'
  | 'approve'
  | 'help'
  | 'version';

/** The strategies `search --strategy` may ask for (`off` would only say that search is off). */
export type CliSearchStrategy = Exclude<SearchStrategy, 'off'>;
export const cliSearchStrategies: readonly CliSearchStrategy[] = ['bm25', 'hybrid', 'llm', 'cloud'];

/** The clients `init --replace-in` can rewrite, and `all`. */
export type ReplaceTarget = McpClientName | 'all';
export const replaceTargets: readonly ReplaceTarget[] = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'all',
];

export interface CliArguments {
  command: CommandName;
  positionals: string[];
  config?: string;
  mode?: 'meta' | 'proxy';
  project?: string;
  logLevel?: LogLevel;
  json: boolean;
  /** `serve`: watch the config file and apply its edits live (false with `--no-watch`). */
  watch: boolean;
  limit?: number;
  server?: string;
  /** `search --strategy`: overrides the config's strategy for this run. */
  strategy?: CliSearchStrategy;
  /** `init`: write the merged config (`--write`), replacing an existing one (`--force`, after a backup). */
  write: boolean;
  force: boolean;
  /** `init --replace-in CLIENT` (repeatable): rewrite these clients' files to start only Search MCP. */
  replaceIn: ReplaceTarget[];
  /** `init --home DIR`: look for client files in this home directory instead of the user's. */
  home?: string;
  /** `init --platform`: whose paths to look at (default: this system's). */
  platform?: 'linux' | 'darwin' | 'win32';
  /** `auth --logout <server>`: forget (and revoke) the server's OAuth tokens instead of logging in. */
  logout: boolean;
  /** `ui --port N`: the port on 127.0.0.1 (default a free one). */
  port?: number;
  /** `ui`: open the console in the browser (false with `--no-open`). */
  open: boolean;
  /** `approve --yes`: approve without asking (scripts). */
  yes: boolean;
  /** `search --fresh`: start every server and search their live lists, not the lists kept from earlier runs. */
  fresh: boolean;
}

const commands: readonly CommandName[] = [
  'serve',
  'search',
  'call',
  'list',
  'doctor',
  'init',
  'auth',
  'ui',
  'secret',
  'approve',
  'help',
  'version',
];
/** Other names of commands. */
const aliases: Readonly<Record<string, CommandName>> = { import: 'init' };

export const usage = `search-mcp: one MCP server in front of all your MCP servers

Usage:
  search-mcp [serve]                 run the stdio MCP server (what AI clients start); it applies edits of
                                     its config file live   [--no-watch: only at a restart]
  search-mcp search <query…>         find tools   [--limit N] [--strategy bm25|hybrid|llm|cloud] [--json]
                                     (searches the tool lists kept from earlier runs, starting only servers
                                     without one; --fresh starts every server and searches their live lists)
  search-mcp call <toolKey> [JSON]   run a tool   [--json]
  search-mcp list                    list tools   [--server ID] [--json]
  search-mcp doctor                  check the config, connect every server, show the context saved [--json]
  search-mcp auth [SERVER]           OAuth: without SERVER, the state of each remote server [--json]; with it,
                                     log in to it in the browser ($BROWSER, else the system's)
                                     --logout SERVER    revoke and forget its tokens
  search-mcp init [PATH]             gather the MCP servers of installed clients into one Search MCP config
                                     (alias: import); changes nothing unless told:
                                     --write            write the config (PATH, --config, or the default)
                                     --force            replace an existing config (a backup is kept)
                                     --replace-in NAME  make Search MCP the only server of a client: claude-desktop,
                                                        cursor, vscode, windsurf or all (a backup is kept)
                                     --home DIR, --platform linux|darwin|win32   look elsewhere [--json]
  search-mcp ui                      the web console for this config on 127.0.0.1: prints its address (with a
                                     one-time sign-in code) and opens it; Ctrl-C stops it
                                     [--port N (default: a free one)] [--no-open] [--no-watch]
  search-mcp secret set NAME         store a secret in the OS keyring for \${keyring:NAME} in the config; the
                                     value comes from stdin (a hidden prompt on a terminal), never the command line
  search-mcp secret list             the names stored with secret set (never the values) [--json]
  search-mcp secret delete NAME      remove a secret from the OS keyring
  search-mcp approve SERVER[:TOOL]   show what changed in a quarantined tool (or all of a server's) and pin it;
                                     asks on a terminal   [--yes: without asking, for scripts]

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
    typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof cliOptions }>
  >;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: cliOptions });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  const { values, positionals } = parsed;
  let command: CommandName = 'serve';
  const first = positionals[0];
  if (first !== undefined) {
    const named = aliases[first] ?? first;
    if (!commands.includes(named as CommandName)) {
      const suggestion = closestName(first, [...commands, ...Object.keys(aliases)]);
      throw new UsageError(`unknown command "${first}"${suggestion ? `; did you mean "${suggestion}"?` : ''}`);
    }
    command = named as CommandName;
    positionals.shift();
  }
  if (values.help) command = 'help';
  if (values.version) command = 'version';
  const result: CliArguments = {
    command,
    positionals,
    json: values.json ?? false,
    watch: !(values['no-watch'] ?? false),
    write: values.write ?? false,
    force: values.force ?? false,
    replaceIn: [],
    logout: values.logout ?? false,
    open: !(values['no-open'] ?? false),
    yes: values.yes ?? false,
    fresh: values.fresh ?? false,
  };
  checkCommandOptions(command, argv);
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
  if (values.strategy !== undefined) {
    if (!cliSearchStrategies.includes(values.strategy as CliSearchStrategy)) {
      const suggestion = closestName(values.strategy, cliSearchStrategies);
      throw new UsageError(
        `--strategy must be one of ${cliSearchStrategies.join(', ')}, not "${values.strategy}"` +
          (suggestion ? `; did you mean "${suggestion}"?` : ''),
      );
    }
    result.strategy = values.strategy as CliSearchStrategy;
  }
  for (const client of values['replace-in'] ?? []) {
    if (!replaceTargets.includes(client as ReplaceTarget)) {
      const suggestion = closestName(client, replaceTargets);
      throw new UsageError(
        `--replace-in takes a client: ${replaceTargets.join(', ')}, not "${client}"` +
          (suggestion ? `; did you mean "${suggestion}"?` : ''),
      );
    }
    if (!result.replaceIn.includes(client as ReplaceTarget)) result.replaceIn.push(client as ReplaceTarget);
  }
  if (values.home !== undefined) result.home = values.home;
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
    result.port = port;
  }
  if (values.platform !== undefined) {
    if (values.platform !== 'linux' && values.platform !== 'darwin' && values.platform !== 'win32')
      throw new UsageError(`--platform must be linux, darwin or win32, not "${values.platform}"`);
    result.platform = values.platform;
  }
  if (command === 'init' && positionals.length > 1)
    throw new UsageError('init takes at most one path: where to write the Search MCP config');
  if (command === 'init' && result.replaceIn.length > 0 && !result.write)
    throw new UsageError(
      '--replace-in needs --write: a client is switched to Search MCP only once the config holding its servers is written',
    );
  if (command === 'auth' && positionals.length > 1) throw new UsageError('auth takes at most one server id');
  if (command === 'auth' && result.logout && positionals.length === 0)
    throw new UsageError('--logout needs the server to log out of, e.g. search-mcp auth --logout github');
  if (command === 'secret') checkSecretArguments(positionals);
  if (command === 'approve' && (positionals.length !== 1 || positionals[0] === '' || positionals[0]?.startsWith(':')))
    throw new UsageError('approve takes one server or server:tool, e.g. search-mcp approve github:create_issue');
  if (command === 'search' && positionals.length === 0)
    throw new UsageError('search needs a query, e.g. search-mcp search "read a file"');
  if (command === 'call' && positionals.length === 0)
    throw new UsageError('call needs a tool key, e.g. search-mcp call filesystem:read_text_file \'{"path":"/tmp/a"}\'');
  if (command === 'call' && positionals.length > 2)
    throw new UsageError('call takes a tool key and one JSON object of arguments (quote the JSON)');
  return result;
}

const secretActions = ['set', 'list', 'delete'];

/** `secret set NAME`, `secret list`, `secret delete NAME`: a NAME is a variable's name, its fallback is `${NAME}`. */
function checkSecretArguments(positionals: readonly string[]): void {
  const [action, name, ...rest] = positionals;
  if (action === undefined || !secretActions.includes(action)) {
    const suggestion = action === undefined ? undefined : closestName(action, secretActions);
    throw new UsageError(
      `secret needs set NAME, list or delete NAME${action === undefined ? '' : `, not "${action}"`}` +
        (suggestion ? `; did you mean "${suggestion}"?` : ''),
    );
  }
  if (action === 'list') {
    if (name !== undefined) throw new UsageError('secret list takes no name');
    return;
  }
  if (name === undefined)
    throw new UsageError(`secret ${action} needs a NAME, e.g. search-mcp secret ${action} GITHUB_TOKEN`);
  if (rest.length > 0)
    throw new UsageError(
      `secret ${action} takes one NAME${action === 'set' ? ': the value is read from stdin, never from the command line' : ''}`,
    );
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new UsageError(`"${name}" cannot be a secret name: use letters, digits and _ (like GITHUB_TOKEN)`);
}

/** Options that mean something to one command only; elsewhere they are a mistake worth saying. */
const commandOptions: Readonly<Record<string, readonly CommandName[]>> = {
  strategy: ['search'],
  'no-watch': ['serve', 'ui'],
  port: ['ui'],
  'no-open': ['ui'],
  limit: ['search'],
  fresh: ['search'],
  server: ['list'],
  write: ['init'],
  force: ['init'],
  'replace-in': ['init'],
  home: ['init'],
  platform: ['init'],
  logout: ['auth'],
  yes: ['approve'],
};

function checkCommandOptions(command: CommandName, argv: readonly string[]): void {
  if (command === 'help' || command === 'version') return;
  for (const argument of argv) {
    if (argument === '--') return;
    if (!argument.startsWith('--')) continue;
    const name = argument.slice(2).split('=')[0] ?? '';
    const allowed = commandOptions[name];
    if (allowed !== undefined && !allowed.includes(command))
      throw new UsageError(`--${name} is an option of ${allowed.join(' and ')}, not of ${command}`);
  }
}

/** Unknown `--flags` (before a `--`), with the nearest known one. */
function checkOptionNames(argv: readonly string[]): void {
  const known = Object.keys(cliOptions);
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
