import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, errorMessage, formatConfigPath, isRecord } from '@search-mcp/shared';
import {
  CONFIG_PATH_ENV_VARIABLE,
  type ClientConfigLocationOptions,
  clientConfigLocations,
  clientDisplayNames,
  discoverClientConfigs,
  type FoundClientConfig,
  type McpClientName,
  mergeClientConfigs,
  parseJsonWithComments,
  renderClientSnippet,
  replaceClientServers,
  writeMergedConfig,
} from '@search-mcp/shared/node';
import type { CliArguments } from '../../cli-arguments.js';
import { UsageError } from '../../usage-error.js';
import { formatInitReport, formatLookedAt, type InitReport } from './init-report.js';
import { maskConfigSecrets } from './masked-config.js';
import {
  type SearchMcpLaunch,
  searchMcpLaunch,
  shellCommandOf,
  shellWord,
  startsThisProgram,
} from './search-mcp-launch.js';

/** Variables that move client files away from the home directory; a home named with `--home` ignores them. */
const homeVariables = ['APPDATA', 'XDG_CONFIG_HOME', 'CLAUDE_CONFIG_DIR'];

/**
 * `search-mcp init` (alias `import`): finds the MCP config files of installed clients, merges their servers into
 * one Search MCP config and prints the snippet that makes Search MCP each client's only server. Without `--write`
 * it changes nothing. `--write` creates the config (an existing one only with `--force`, after a backup);
 * `--replace-in CLIENT` rewrites that client's files, each after a backup. Exit 1 when nothing was found or a
 * client file could not be rewritten.
 */
export async function initCommand(cli: CliArguments): Promise<number> {
  const platform = cli.platform ?? process.platform;
  const homeDirectory = resolve(cli.home ?? homedir());
  const projectDirectory = process.cwd();
  const environment =
    cli.home === undefined
      ? process.env
      : Object.fromEntries(Object.entries(process.env).filter(([name]) => !homeVariables.includes(name)));
  const where: ClientConfigLocationOptions = { platform, homeDirectory, projectDirectory, environment };
  if (cli.replaceIn.includes('claude-code')) {
    throw new UsageError(
      'Claude Code rewrites ~/.claude.json while it runs, so init does not: run the `claude mcp` lines init prints',
      { showHelpHint: false },
    );
  }

  const script = process.argv[1] ?? '';
  const ownEntries: string[] = [];
  const discovered = await discoverClientConfigs(where);
  const found = discovered.map((file) => withoutThisProgram(file, script, ownEntries));
  const foundPaths = new Set(found.map((file) => file.path));
  const lookedAt = clientConfigLocations(where).map(({ client, scope, path }) => ({
    client,
    scope,
    path,
    found: foundPaths.has(path),
  }));
  if (found.length === 0) {
    const places = { lookedAt, platform, homeDirectory };
    if (cli.json) process.stdout.write(`${JSON.stringify({ ...places, clients: [] }, null, 2)}\n`);
    else process.stderr.write(`search-mcp: ${formatLookedAt(places)}\n`);
    return 1;
  }

  const targetPath = resolve(
    cli.positionals[0] ??
      cli.config ??
      nonEmpty(process.env[CONFIG_PATH_ENV_VARIABLE]) ??
      join(homeDirectory, '.config', 'search-mcp', 'config.json'),
  );
  const existed = existsSync(targetPath);
  if (cli.write && existed && !cli.force) {
    throw new UsageError(
      `${targetPath} already exists; add --force to replace it (its servers are kept and a backup is written ` +
        'next to it), or name another path',
      { showHelpHint: false },
    );
  }
  // An existing config's servers come first and keep their names; its other sections stay as they are.
  const base = existed ? await readExistingConfig(targetPath) : undefined;
  const merged = mergeClientConfigs(found, { ...(base ? { base } : {}), environment: process.env });
  merged.warnings.unshift(...ownEntries);
  const serverIds = Object.keys(merged.config.mcpServers);

  // How this very program is run again: `search-mcp init --write` is no advice when `search-mcp` is not on PATH.
  const launch = searchMcpLaunch({ script });
  const report: InitReport = {
    platform,
    homeDirectory,
    projectDirectory,
    lookedAt,
    clients: discovered.map((file) => describeFile(file, merged.origins)),
    merged: { servers: serverIds, config: maskConfigSecrets(merged.config) },
    warnings: merged.warnings,
    target: { path: targetPath, existed, action: 'dry-run', writeCommand: writeCommand(cli, existed, launch) },
    command: shellCommandOf(launch),
    snippets: [],
    replaced: [],
  };
  if (serverIds.length === 0) {
    printReport(cli, report);
    process.stderr.write(
      'search-mcp: the client configs found list no servers (other than Search MCP itself): nothing to merge\n',
    );
    return 1;
  }

  if (cli.write) {
    const written = await writeMergedConfig(targetPath, merged.config, { overwrite: cli.force });
    report.target = {
      path: written.path,
      existed,
      action: written.backupPath ? 'replaced' : 'written',
      ...(written.backupPath ? { backupPath: written.backupPath } : {}),
    };
  }

  const args = [...launch.args, '--config', targetPath];
  const snippets = new Map<McpClientName, ReturnType<typeof renderClientSnippet>>();
  for (const client of clientsWithServers(found, merged.origins)) {
    const replacing = found
      .filter((file) => file.client === 'claude-code')
      .flatMap((file) => mergedNames(file, merged.origins).map((name) => ({ name, scope: file.scope })));
    const snippet = renderClientSnippet(client, {
      command: launch.command,
      args,
      platform,
      ...(client === 'claude-code' ? { replacing } : {}),
    });
    snippets.set(client, snippet);
    report.snippets.push({
      client,
      format: snippet.format,
      // Where the list sits when it is not the snippet's top-level key (VS Code settings.json: "mcp" › "servers").
      files: found
        .filter((file) => file.client === client)
        .map((file) =>
          file.serverListPath.join('.') === snippet.serverListKey
            ? file.path
            : `${file.path} (at ${file.serverListPath.map((key) => JSON.stringify(key)).join(' › ')})`,
        ),
      text: snippet.text,
    });
  }

  let failures = 0;
  const replaceClients = cli.replaceIn.includes('all')
    ? [...snippets.keys()].filter((client) => client !== 'claude-code')
    : cli.replaceIn.filter((client): client is McpClientName => client !== 'all');
  for (const client of replaceClients) {
    const snippet = snippets.get(client);
    const files = found.filter((file) => file.client === client);
    if (snippet === undefined || files.length === 0) {
      report.replaced.push({
        client,
        path: '',
        outcome: 'skipped',
        reason: `no ${clientDisplayNames[client]} config with servers other than Search MCP was found`,
      });
      continue;
    }
    for (const file of files) {
      const skip = (reason: string) => report.replaced.push({ client, path: file.path, outcome: 'skipped', reason });
      if (file.problems.length > 0) {
        skip('it could not be read, so its servers are not in the Search MCP config');
        failures += 1;
      } else if (mergedNames(file, merged.origins).length === 0) {
        skip('it lists no servers other than Search MCP');
      } else {
        try {
          const result = await replaceClientServers(file.path, snippet, {
            backup: true,
            serverListPath: file.serverListPath,
          });
          report.replaced.push({ client, path: file.path, outcome: 'replaced', backupPath: result.backupPath });
        } catch (error) {
          if (!ConfigError.isInstance(error)) throw error;
          skip(error.message.startsWith(file.path) ? error.message.slice(file.path.length + 1) : error.message);
          failures += 1;
        }
      }
    }
  }

  printReport(cli, report);
  return failures > 0 ? 1 : 0;
}

/**
 * The file without entries that start this very program (recorded in `warnings`), which the shared rule for
 * Search MCP itself does not know by path when it is installed under another directory.
 */
function withoutThisProgram(file: FoundClientConfig, script: string, warnings: string[]): FoundClientConfig {
  const servers: FoundClientConfig['servers'] = Object.create(null);
  for (const [name, entry] of Object.entries(file.servers)) {
    if (startsThisProgram(entry, script)) {
      warnings.push(
        `${clientDisplayNames[file.client]} ${file.path}: ${formatConfigPath([...file.serverListPath, name])}: ` +
          'skipped: it runs Search MCP itself (this very program), which would start itself',
      );
    } else servers[name] = entry;
  }
  return { ...file, servers };
}

function printReport(cli: CliArguments, report: InitReport): void {
  process.stdout.write(cli.json ? `${JSON.stringify(report, null, 2)}\n` : formatInitReport(report));
}

function describeFile(file: FoundClientConfig, origins: ReturnType<typeof mergeClientConfigs>['origins']) {
  const renamed: Record<string, string> = {};
  for (const [id, list] of Object.entries(origins)) {
    for (const origin of list) {
      if (origin.path === file.path && origin.scope === file.scope && origin.name !== id) renamed[origin.name] = id;
    }
  }
  return {
    client: file.client,
    scope: file.scope,
    path: file.path,
    servers: Object.keys(file.servers),
    renamed,
    problems: file.problems,
  };
}

/** The names of the entries of `file` that are in the merged config (Search MCP itself is not). */
function mergedNames(file: FoundClientConfig, origins: ReturnType<typeof mergeClientConfigs>['origins']): string[] {
  return Object.values(origins)
    .flat()
    .filter((origin) => origin.path === file.path && origin.scope === file.scope)
    .map((origin) => origin.name);
}

/** Clients, in the order found, with at least one server that went into the merged config. */
function clientsWithServers(
  found: readonly FoundClientConfig[],
  origins: ReturnType<typeof mergeClientConfigs>['origins'],
): McpClientName[] {
  const clients: McpClientName[] = [];
  for (const file of found) {
    if (!clients.includes(file.client) && mergedNames(file, origins).length > 0) clients.push(file.client);
  }
  return clients;
}

/** The config `init` would replace, as written; one that cannot be read stops init before anything changes. */
async function readExistingConfig(path: string): Promise<Record<string, unknown>> {
  let document: unknown;
  try {
    document = parseJsonWithComments(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `${path} exists but cannot be read as JSON (${errorMessage(error)}); fix or move it, or name another path`,
      { showHelpHint: false },
    );
  }
  if (!isRecord(document)) {
    throw new UsageError(`${path} exists but does not hold a JSON object; fix or move it, or name another path`, {
      showHelpHint: false,
    });
  }
  return document;
}

/** The same command line with `--write` (and `--force` when the file exists), started as this program was. */
function writeCommand(cli: CliArguments, existed: boolean, launch: SearchMcpLaunch): string {
  const words = [shellCommandOf(launch), 'init', ...cli.positionals.map(shellWord), '--write'];
  if (existed) words.push('--force');
  if (cli.config !== undefined) words.push('--config', shellWord(cli.config));
  if (cli.home !== undefined) words.push('--home', shellWord(cli.home));
  if (cli.platform !== undefined) words.push('--platform', cli.platform);
  return words.join(' ');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
