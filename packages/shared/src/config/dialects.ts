/**
 * Other clients' config files, read as they are (packages/shared/README.md, "Configuration"):
 * - Claude Desktop, Cursor, Cline, Roo, Windsurf: top-level `mcpServers`.
 * - VS Code (`.vscode/mcp.json`): top-level `servers`, `"type": "stdio"`, `${env:VAR}` (see `env-expansion.ts`).
 * - Claude Code (`~/.claude.json`): user-scope `mcpServers` plus `projects[<directory>].mcpServers`, the project's
 *   entry winning over a user entry of the same name.
 * - In an entry: `"disabled": true` (Cline, Roo, Windsurf), `"serverUrl"` (Windsurf), `"transportType"` (Cline),
 *   `"disabledTools": [...]` (Roo, Windsurf) become `enabled`, `url`, `type` and `toolPermissions`.
 */
import { isRecord } from '../text/is-record.js';
import type { ConfigPath } from './config-path.js';
import { serverTypeValues } from './config-schema.js';
import type { ParseContext } from './parse-context.js';
import { describeValueType } from './schema-issue-message.js';

/** One server entry as written, with the path it was found at and the key it was found under. */
export interface ServerSource {
  key: string;
  /** Path of the entry itself, e.g. `["servers", "github"]`. */
  path: ConfigPath;
  value: unknown;
}

/** Keys of the server-entry dialects, read by `normalizeServerEntry`. */
export const dialectServerKeys = ['disabled', 'serverUrl', 'transportType', 'disabledTools'] as const;

/**
 * Every server entry of the file, from every place a client keeps them. Undefined (with an issue) when there is no
 * server list, or the main one is not an object: then nothing can be started and the file is refused.
 */
export function collectServerSources(
  input: Record<string, unknown>,
  context: ParseContext,
): ServerSource[] | undefined {
  const mcpServers = input['mcpServers'];
  const vsCodeServers = input['servers'];
  if (mcpServers === undefined && vsCodeServers === undefined) {
    context.report(['mcpServers'], 'required');
    return undefined;
  }

  const sources: ServerSource[] = [];
  if (mcpServers !== undefined) {
    if (!isRecord(mcpServers)) {
      context.report(['mcpServers'], `expected an object, got ${describeValueType(mcpServers)}`);
      return undefined;
    }
    sources.push(...entriesOf(mcpServers, ['mcpServers']));
  }
  if (vsCodeServers !== undefined) {
    if (isRecord(vsCodeServers)) {
      sources.push(...entriesOf(vsCodeServers, ['servers']));
    } else if (mcpServers === undefined) {
      context.report(['servers'], `expected an object, got ${describeValueType(vsCodeServers)}`);
      return undefined;
    } else {
      context.warn(['servers'], 'not an object of servers, ignored');
    }
  }
  const projects = input['projects'];
  if (isClaudeCodeProjects(projects)) addClaudeCodeProjectServers(projects, sources, context);
  return sources;
}

/**
 * Claude Code keeps per-directory settings under `projects`, keyed by absolute path; Search MCP's own `projects`
 * are named like `web`. A non-empty `projects` whose every key is an absolute path is Claude Code's.
 */
export function isClaudeCodeProjects(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => /^(?:\/|~[\\/]|[A-Za-z]:[\\/]|\\\\)/.test(key));
}

function addClaudeCodeProjectServers(
  projects: Record<string, unknown>,
  sources: ServerSource[],
  context: ParseContext,
): void {
  const directory = context.options.projectDirectory;
  if (directory === undefined) return;
  const project = Object.hasOwn(projects, directory) ? projects[directory] : undefined;
  const servers = isRecord(project) ? project['mcpServers'] : undefined;
  if (!isRecord(servers)) return;
  for (const source of entriesOf(servers, ['projects', directory, 'mcpServers'])) {
    // The project scope wins over the user scope, as in Claude Code itself.
    const userIndex = sources.findIndex((existing) => existing.key === source.key);
    if (userIndex === -1) sources.push(source);
    else sources[userIndex] = source;
  }
}

function entriesOf(servers: Record<string, unknown>, path: ConfigPath): ServerSource[] {
  return Object.keys(servers).map((key) => ({ key, path: [...path, key], value: servers[key] }));
}

/**
 * The entry in Search MCP's own words: dialect keys mapped, conflicts reported under the entry's `context`.
 * A non-object is returned as it is (validation reports it).
 */
export function normalizeServerEntry(value: unknown, path: ConfigPath, context: ParseContext): unknown {
  if (!isRecord(value)) return value;
  const entry: Record<string, unknown> = Object.fromEntries(Object.entries(value));

  if (Object.hasOwn(entry, 'disabled')) {
    const disabled = entry['disabled'];
    delete entry['disabled'];
    if (typeof disabled !== 'boolean') {
      context.report([...path, 'disabled'], `expected boolean, got ${describeValueType(disabled)}`);
    } else if (typeof entry['enabled'] === 'boolean' && entry['enabled'] === disabled) {
      // Contradicting switches: not starting is the safe reading.
      context.warn([...path, 'disabled'], `contradicts "enabled"; the server is not started`);
      entry['enabled'] = false;
    } else if (disabled) {
      entry['enabled'] = false;
    }
  }

  if (Object.hasOwn(entry, 'serverUrl')) {
    const serverUrl = entry['serverUrl'];
    delete entry['serverUrl'];
    if (!Object.hasOwn(entry, 'url')) entry['url'] = serverUrl;
    else if (entry['url'] !== serverUrl) {
      context.report([...path, 'serverUrl'], 'differs from "url": keep one of them');
    }
  }

  if (Object.hasOwn(entry, 'transportType')) {
    const transportType = entry['transportType'];
    delete entry['transportType'];
    if (!(serverTypeValues as readonly unknown[]).includes(transportType)) {
      context.report(
        [...path, 'transportType'],
        `expected one of ${serverTypeValues.map((type) => `"${type}"`).join(', ')}`,
      );
    } else if (!Object.hasOwn(entry, 'type')) {
      entry['type'] = transportType;
    }
  }

  if (Object.hasOwn(entry, 'disabledTools')) {
    const disabledTools = entry['disabledTools'];
    delete entry['disabledTools'];
    if (!Array.isArray(disabledTools) || !disabledTools.every((tool) => typeof tool === 'string')) {
      context.report([...path, 'disabledTools'], 'expected an array of tool names');
    } else if (disabledTools.length > 0) {
      // An explicit `toolPermissions` entry wins; the list only adds `false`s.
      const permissions = isRecord(entry['toolPermissions']) ? entry['toolPermissions'] : {};
      const merged = Object.create(null) as Record<string, unknown>;
      for (const tool of disabledTools) merged[tool] = false;
      for (const [tool, allowed] of Object.entries(permissions)) merged[tool] = allowed;
      if (entry['toolPermissions'] === undefined || isRecord(entry['toolPermissions']))
        entry['toolPermissions'] = merged;
    }
  }
  return entry;
}
