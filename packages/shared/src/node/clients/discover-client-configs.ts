/**
 * `discoverClientConfigs`: the MCP config files of the clients installed on this machine (for `search-mcp init`).
 * A file that cannot be read or parsed is reported in its `problems`, never thrown: one broken client file must
 * not hide the others.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatConfigPath } from '../../config/config-path.js';
import { createRecord } from '../../config/config-values.js';
import { describeValueType } from '../../config/schema-issue-message.js';
import { errorMessage } from '../../text/error-message.js';
import { isRecord } from '../../text/is-record.js';
import { describeReadError } from '../load-config.js';
import { parseJsonWithComments } from '../parse-json-with-comments.js';
import {
  type ClientConfigLocation,
  type ClientConfigLocationOptions,
  clientConfigLocations,
} from './client-config-locations.js';
import type { ClientServerEntry, FoundClientConfig } from './client-config-types.js';

export type DiscoverClientConfigsOptions = ClientConfigLocationOptions;

/**
 * Reads every known client config location (see `clientConfigLocations`) and returns one result per server list
 * found, in a fixed order: Claude Desktop, Claude Code (user, local, project), Cursor (user, project), VS Code (user
 * `mcp.json`, user `settings.json`, Insiders, project), Windsurf. Missing files are left out; a dedicated MCP file
 * without servers is listed with none; `settings.json` and `~/.claude.json` are listed only when they hold servers
 * (or cannot be read).
 */
export async function discoverClientConfigs(options: DiscoverClientConfigsOptions = {}): Promise<FoundClientConfig[]> {
  const projectDirectory = resolve(options.projectDirectory ?? process.cwd());
  const platform = options.platform ?? process.platform;
  const found: FoundClientConfig[] = [];
  for (const location of clientConfigLocations({ ...options, projectDirectory, platform })) {
    found.push(...(await readLocation(location, projectDirectory, platform)));
  }
  return found;
}

async function readLocation(
  location: ClientConfigLocation,
  projectDirectory: string,
  platform: NodeJS.Platform,
): Promise<FoundClientConfig[]> {
  const failed = (problem: string): FoundClientConfig[] => [result(location, defaultListPath(location), {}, [problem])];

  let text: string;
  try {
    text = await readFile(location.path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // Not there (or a parent is a file): this client is not installed, or keeps no servers here.
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    return failed(describeReadError(error, location.path));
  }

  let document: unknown;
  try {
    document = parseJsonWithComments(text);
  } catch (error) {
    // The message gives line and column, never the text (which may hold a token).
    return failed(errorMessage(error));
  }
  if (!isRecord(document)) return failed(`expected an object at the top level, got ${describeValueType(document)}`);

  switch (location.layout) {
    case 'mcpServers':
    case 'servers': {
      const listPath = [location.layout];
      const list = document[location.layout];
      // A client's own MCP file is listed even without servers: init then says it was found and holds none.
      return [serverList(location, listPath, list ?? {})];
    }
    case 'vscode-settings': {
      const nested = isRecord(document['mcp']) ? document['mcp']['servers'] : undefined;
      if (nested !== undefined) return [serverList(location, ['mcp', 'servers'], nested)];
      // Settings may also be written flat, with the dotted name as one key.
      const flat = document['mcp.servers'];
      return flat === undefined ? [] : [serverList(location, ['mcp.servers'], flat)];
    }
    case 'claude-code-state':
      return claudeCodeServerLists(location, document, projectDirectory, platform);
  }
}

/** `~/.claude.json`: the user scope (`mcpServers`), then the local scope of the project directory. */
function claudeCodeServerLists(
  location: ClientConfigLocation,
  document: Record<string, unknown>,
  projectDirectory: string,
  platform: NodeJS.Platform,
): FoundClientConfig[] {
  const lists: FoundClientConfig[] = [];
  if (document['mcpServers'] !== undefined) lists.push(serverList(location, ['mcpServers'], document['mcpServers']));
  const projects = document['projects'];
  if (isRecord(projects)) {
    const key = claudeCodeProjectKey(projects, projectDirectory, platform);
    const project = key === undefined ? undefined : projects[key];
    if (key !== undefined && isRecord(project) && project['mcpServers'] !== undefined) {
      lists.push(serverList({ ...location, scope: 'local' }, ['projects', key, 'mcpServers'], project['mcpServers']));
    }
  }
  return lists;
}

/**
 * The key of `projects` naming `directory`: Claude Code writes the absolute path as the process saw it, which on
 * Windows may use either slash; Windows paths compare without case.
 */
function claudeCodeProjectKey(
  projects: Record<string, unknown>,
  directory: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (Object.hasOwn(projects, directory)) return directory;
  const comparable = (path: string) => {
    const slashed = path.replace(/\\/g, '/').replace(/(?<=.)\/+$/, '');
    return platform === 'win32' ? slashed.toLowerCase() : slashed;
  };
  const wanted = comparable(directory);
  return Object.keys(projects).find((key) => comparable(key) === wanted);
}

function serverList(location: ClientConfigLocation, listPath: string[], list: unknown): FoundClientConfig {
  if (!isRecord(list)) {
    return result(location, listPath, {}, [
      `${formatConfigPath(listPath)}: expected an object of servers, got ${describeValueType(list)}`,
    ]);
  }
  const servers = createRecord<ClientServerEntry>();
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(list)) {
    if (isRecord(entry)) servers[name] = entry;
    else problems.push(`${formatConfigPath([...listPath, name])}: expected an object, got ${describeValueType(entry)}`);
  }
  return result(location, listPath, servers, problems);
}

function defaultListPath(location: ClientConfigLocation): string[] {
  if (location.layout === 'servers') return ['servers'];
  if (location.layout === 'vscode-settings') return ['mcp', 'servers'];
  return ['mcpServers'];
}

function result(
  location: ClientConfigLocation,
  serverListPath: string[],
  servers: Record<string, ClientServerEntry>,
  problems: string[],
): FoundClientConfig {
  return { client: location.client, scope: location.scope, path: location.path, serverListPath, servers, problems };
}
