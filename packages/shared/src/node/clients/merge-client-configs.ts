/**
 * `mergeClientConfigs`: the servers of every client file found, as one Search MCP config (`search-mcp init`).
 *
 * - One server once: entries with the same `command` and `args`, or the same `url`, are one server
 *   (`serverIdentityKey`), kept under the first name met; a warning says when the names or settings differ.
 * - A name met again for a different server keeps the first under it; the other gets `<id>-<client>` and a warning.
 * - An entry that runs Search MCP itself is dropped with the parser's own warning (`searchMcpInvocation`).
 * - Other clients' words (`serverUrl`, `disabled`, `transportType`, `disabledTools`) become ours with the parser's
 *   own mapping (`normalizeServerEntry`); an entry that mapping finds wrong is kept as written (it will show as
 *   failed with the reason) and a warning says why.
 *
 * Pure: no files are read or written here. Warnings name clients, files, JSON paths and keys, never a value (env and
 * header values, arguments and URLs may hold tokens).
 */
import { type ConfigPath, formatConfigPath } from '../../config/config-path.js';
import { createRecord, sameJsonValue } from '../../config/config-values.js';
import { normalizeServerEntry } from '../../config/dialects.js';
import { expandVariables, type VariableEnvironment } from '../../config/env-expansion.js';
import { ParseContext } from '../../config/parse-context.js';
import { searchMcpInvocation, selfReferenceWarning } from '../../config/self-reference.js';
import { serverIdentityKey } from '../../config/server-identity.js';
import { formatIssues } from '../../errors/issue.js';
import { normalizeServerId } from '../../keys/server-id.js';
import { isRecord } from '../../text/is-record.js';
import {
  type ClientConfigScope,
  type ClientServerEntry,
  clientDisplayNames,
  type FoundClientConfig,
  type McpClientName,
} from './client-config-types.js';

export interface MergeClientConfigsOptions {
  /**
   * A Search MCP config as written (e.g. the file `init` would otherwise replace): its servers come first and keep
   * their names, and its other sections are kept as they are.
   */
  base?: Record<string, unknown>;
  /** Variables for recognizing Search MCP behind `${VAR}` in a command or argument; default `process.env`. */
  environment?: VariableEnvironment;
}

/** A client entry a merged server stands for. */
export interface MergedServerOrigin {
  client: McpClientName;
  scope: ClientConfigScope;
  path: string;
  /** The entry's name in that file. */
  name: string;
}

export interface MergedClientConfigs {
  /** A Search MCP config file's content: `mcpServers` (and the other sections of `base`). */
  config: { mcpServers: Record<string, ClientServerEntry>; [section: string]: unknown };
  /** Every entry merged, renamed, dropped or kept with a problem, each naming the client file and JSON path. */
  warnings: string[];
  /** For each server of `config.mcpServers` taken from a client file: every entry it stands for. */
  origins: Record<string, MergedServerOrigin[]>;
}

interface KeptServer {
  key: string;
  entry: ClientServerEntry;
  /** Where it was first met, for messages: `Claude Desktop /path/claude_desktop_config.json`. */
  where: string;
}

export function mergeClientConfigs(
  found: readonly FoundClientConfig[],
  options: MergeClientConfigsOptions = {},
): MergedClientConfigs {
  const environment = options.environment ?? process.env;
  const mcpServers = createRecord<ClientServerEntry>();
  const origins = createRecord<MergedServerOrigin[]>();
  const warnings: string[] = [];
  const byIdentity = new Map<string, KeptServer>();
  const byId = new Map<string, KeptServer>();

  const keep = (key: string, entry: ClientServerEntry, where: string, identity: string | undefined) => {
    const kept: KeptServer = { key, entry, where };
    mcpServers[key] = entry;
    const id = normalizeServerId(key);
    if (id !== undefined) byId.set(id, kept);
    if (identity !== undefined) byIdentity.set(identity, kept);
    return kept;
  };

  const baseServers = options.base?.['mcpServers'];
  if (isRecord(baseServers)) {
    for (const [name, entry] of Object.entries(baseServers)) {
      const record = isRecord(entry) ? entry : {};
      keep(name, entry as ClientServerEntry, 'the existing config', identityOf(record));
    }
  }

  for (const file of found) {
    const fileName = `${clientDisplayNames[file.client]} ${file.path}`;
    for (const [name, written] of Object.entries(file.servers)) {
      const entryPath: ConfigPath = [...file.serverListPath, name];
      const warn = (message: string) => warnings.push(`${fileName}: ${formatConfigPath(entryPath)}: ${message}`);
      const origin: MergedServerOrigin = { client: file.client, scope: file.scope, path: file.path, name };

      const entry = inOurWords(written, entryPath, environment, (warning) => warnings.push(`${fileName}: ${warning}`));
      const invocation = runsSearchMcp(entry, environment);
      if (invocation !== undefined) {
        warn(selfReferenceWarning(invocation));
        continue;
      }

      const identity = identityOf(entry);
      const same = identity === undefined ? undefined : byIdentity.get(identity);
      if (same !== undefined) {
        if (same.key !== name) warn(`the same server as ${JSON.stringify(same.key)} from ${same.where}; kept once`);
        const differences = describeDifferences(same.entry, entry);
        if (differences.length > 0) {
          warn(
            `its ${differences.join(', ')} differ from ${JSON.stringify(same.key)} from ${same.where}, ` +
              `whose settings are kept`,
          );
        }
        const sameOrigins = origins[same.key];
        if (sameOrigins === undefined) origins[same.key] = [origin];
        else sameOrigins.push(origin);
        continue;
      }

      let key = name;
      const id = normalizeServerId(name);
      const taken = id === undefined ? undefined : byId.get(id);
      if (id === undefined || taken !== undefined) {
        key = freeKey(id ?? 'server', file.client, byId);
        warn(
          taken === undefined
            ? `the name cannot be made into a server id (it needs a letter or digit); kept as ${JSON.stringify(key)}`
            : `another server is already called ${JSON.stringify(taken.key)} (from ${taken.where}); ` +
                `kept as ${JSON.stringify(key)}`,
        );
      }
      keep(key, entry, fileName, identity);
      origins[key] = [origin];
    }
  }

  return { config: { ...(options.base ?? {}), mcpServers }, warnings, origins };
}

/**
 * The entry with other clients' words mapped to ours by the parser's own rules. When the mapping finds a problem
 * (`serverUrl` and `url` disagree, a `disabled` that is not a boolean), the entry is kept as written, so nothing is
 * lost and loading it reports the server as failed with the reason.
 */
function inOurWords(
  written: ClientServerEntry,
  path: ConfigPath,
  environment: VariableEnvironment,
  warn: (warning: string) => void,
): ClientServerEntry {
  const context = new ParseContext({ env: environment });
  const normalized = normalizeServerEntry(written, path, context);
  // Conflicts the mapping resolved on its own (contradicting switches) are worth a look, not a stop.
  for (const warning of context.warnings) warn(warning);
  if (context.issues.length > 0) {
    warn(`${formatConfigPath(path)}: kept as written, it will show as failed: ${formatIssues(context.issues)}`);
    return written;
  }
  return isRecord(normalized) ? normalized : written;
}

function identityOf(entry: Record<string, unknown>): string | undefined {
  const command = typeof entry['command'] === 'string' ? entry['command'] : undefined;
  const args = Array.isArray(entry['args']) ? entry['args'].filter((item) => typeof item === 'string') : undefined;
  const url = typeof entry['url'] === 'string' ? entry['url'] : undefined;
  return serverIdentityKey({ command, args, url });
}

function runsSearchMcp(entry: ClientServerEntry, environment: VariableEnvironment): string | undefined {
  const command = entry['command'];
  if (typeof command !== 'string') return undefined;
  const args = Array.isArray(entry['args']) ? entry['args'].filter((item) => typeof item === 'string') : [];
  const expand = (text: string) => expandVariables(text, environment).value;
  return searchMcpInvocation(expand(command), args.map(expand));
}

/**
 * Which settings of `other` differ from `kept`, by name only: `env (GITHUB_TOKEN)`, `headers (Authorization)`,
 * `cwd`. `type` is left out: `"stdio"` written or not is the same server.
 */
function describeDifferences(kept: ClientServerEntry, other: ClientServerEntry): string[] {
  const differences: string[] = [];
  const keys = new Set([...Object.keys(kept), ...Object.keys(other)]);
  for (const key of ['command', 'args', 'url', 'type']) keys.delete(key);
  for (const key of keys) {
    const left = kept[key];
    const right = other[key];
    if (sameJsonValue(left, right)) continue;
    if ((key === 'env' || key === 'headers') && (isRecord(left) || isRecord(right))) {
      const leftRecord = isRecord(left) ? left : {};
      const rightRecord = isRecord(right) ? right : {};
      const names = [...new Set([...Object.keys(leftRecord), ...Object.keys(rightRecord)])].filter(
        (name) => !sameJsonValue(leftRecord[name], rightRecord[name]),
      );
      differences.push(`${key} (${names.join(', ')})`);
    } else {
      differences.push(key);
    }
  }
  return differences;
}

/** `<id>-<client>`, then `-2`, `-3`…, each within the 32 characters of a server id. */
function freeKey(id: string, client: McpClientName, byId: ReadonlyMap<string, unknown>): string {
  for (let attempt = 1; ; attempt += 1) {
    const suffix = attempt === 1 ? `-${client}` : `-${client}-${attempt}`;
    const key = `${id.slice(0, 32 - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!byId.has(key)) return key;
  }
}
