/**
 * What a tool key names for a caller, applying every visibility rule (docs/projects-and-tokens.md, "Visibility"): the
 * tool when it is listed and visible, the server and tool name when the server is configured and allowed but not
 * running, why it is blocked when the caller could otherwise see it, or nothing. A tool of a server the caller may not
 * see is indistinguishable from one that does not exist.
 */
import { parseToolKey, ToolNotFoundError, type ResolvedConfig, type ToolInfo } from '@search-mcp/shared';
import { closestToolKeys } from '../execution/tool-key-suggestions.js';
import { isToolAllowed } from './caller-access.js';
import type { Caller } from './catalog-types.js';
import type { CatalogToolSource } from './catalog-tool-source.js';
import { configuredServer } from './config-lookup.js';
import { isServerVisibleToProject } from './project-visibility.js';
import { configuredOriginalName, overrideOf } from './tool-overrides.js';
import type { ProjectTools } from './visible-tools-cache.js';

export type Resolution =
  | { kind: 'tool'; tool: ToolInfo }
  /** `toolName`: the backend's own name. */
  | { kind: 'not-connected'; serverId: string; toolName: string }
  | { kind: 'disabled'; toolKey: string; reason: string }
  | { kind: 'not-found' };

export interface ResolutionScope {
  config: ResolvedConfig;
  sources: readonly CatalogToolSource[];
}

/** The source that answers for a server id. */
export function sourceFor(sources: readonly CatalogToolSource[], serverId: string): CatalogToolSource | undefined {
  return sources.find((source) => source.serverIds.includes(serverId));
}

/** `tools`: the caller's project's tools (the caller already authorized). Synchronous: every forwarded call resolves. */
export function resolveToolKey(
  toolKey: unknown,
  caller: Caller,
  tools: Pick<ProjectTools, 'tools' | 'byKey'>,
  scope: ResolutionScope,
): Resolution {
  const parsed = typeof toolKey === 'string' ? parseToolKey(toolKey.trim()) : undefined;
  if (!parsed) return { kind: 'not-found' };
  const { serverId, toolName } = parsed;
  const key = `${serverId}:${toolName}`;
  // Not a tool the caller's roles allow: as if it did not exist (docs/oauth-in-front.md, "Roles").
  if (!isToolAllowed(caller.access, caller.projectId, serverId, key)) return { kind: 'not-found' };
  const server = configuredServer(scope.config, serverId);
  // Not the caller's server: indistinguishable from one that does not exist.
  if (server && !isServerVisibleToProject(server.projects, caller.projectId)) return { kind: 'not-found' };
  if (server && !server.enabled)
    return { kind: 'disabled', toolKey: key, reason: `MCP server '${serverId}' is disabled in the config` };
  const candidate = tools.byKey.get(key);
  // Permissions and overrides name the backend's tool; a key names it as shown (renamed: by its new name). A name
  // an override renamed away names nothing.
  const original = candidate
    ? (candidate.originalName ?? candidate.toolName)
    : configuredOriginalName(server, toolName);
  if (original === undefined) return { kind: 'not-found' };
  if (server && Object.hasOwn(server.toolPermissions, original) && server.toolPermissions[original] === false) {
    return { kind: 'disabled', toolKey: key, reason: 'toolPermissions' };
  }
  if (overrideOf(server, original)?.enabled === false) {
    return { kind: 'disabled', toolKey: key, reason: `tools.${original}.enabled is false in the config` };
  }
  if (candidate && isServerVisibleToProject(candidate.serverProjects, caller.projectId))
    return { kind: 'tool', tool: candidate };
  const source = sourceFor(scope.sources, serverId);
  const disabled = source?.disabledTool?.(serverId, original);
  if (disabled && isServerVisibleToProject(disabled.serverProjects, caller.projectId)) {
    return { kind: 'disabled', toolKey: key, reason: disabled.reason };
  }
  // Only a configured backend (its project was checked above) can be "not connected"; anything else the caller
  // cannot see is simply not found.
  if (!server || !source) return { kind: 'not-found' };
  // A running server answers only for the tools it lists: one whose tools are all hidden or malformed gets nothing.
  const state = source.serverState?.(serverId);
  const running =
    state !== undefined ? state === 'running' : tools.tools.some((entry) => entry.serverName === serverId);
  return running ? { kind: 'not-found' } : { kind: 'not-connected', serverId, toolName: original };
}

/**
 * `Tool not found: <key><detail>. Did you mean: …?`, with the closest visible keys. When `detail` says nothing else:
 * a key naming no visible server (and close to no tool) says so and names the servers there are; a tool no listed one of its server is close
 * to names some of that server's tools, so a model (or a person at `search-mcp call`) can pick one.
 */
export function toolNotFound(requestedKey: unknown, visible: readonly ToolInfo[], detail: string): ToolNotFoundError {
  // Callers from JavaScript or JSON may pass anything as a key.
  const toolKey = String(requestedKey);
  const keys = visible.map((tool) => tool.toolKey);
  const suggestions = closestToolKeys(toolKey, keys);
  const hint = suggestions.length > 0 ? `. Did you mean: ${suggestions.join(', ')}?` : '';
  const explanation = detail === '' ? serverNote(toolKey.trim(), visible, suggestions) : detail;
  return new ToolNotFoundError({
    toolName: toolKey,
    suggestions,
    message: `Tool not found: ${toolKey}${explanation}${hint}`,
  });
}

/** How many of a server's tools a not-found answer names when none is close to the key. */
const listedToolsOfServer = 8;

/** ` (no MCP server 'x'; the servers: a, b)` or ` (MCP server 'a' has: t1, t2, … and 5 more)`, or nothing. */
function serverNote(toolKey: string, visible: readonly ToolInfo[], suggestions: readonly string[]): string {
  const serverId = parseToolKey(toolKey)?.serverId;
  if (serverId === undefined || visible.length === 0) return '';
  const servers = [...new Set(visible.map((tool) => tool.serverName))];
  // A wrong server with a suggestion (the same tool elsewhere) needs no more words.
  if (!servers.includes(serverId))
    return suggestions.length > 0 ? '' : ` (no MCP server '${serverId}'; the servers: ${servers.join(', ')})`;
  if (suggestions.some((key) => parseToolKey(key)?.serverId === serverId)) return '';
  const names = visible
    .filter((tool) => tool.serverName === serverId)
    .map((tool) => tool.toolName)
    .sort();
  const more = names.length > listedToolsOfServer ? ` and ${names.length - listedToolsOfServer} more` : '';
  return ` (MCP server '${serverId}' has: ${names.slice(0, listedToolsOfServer).join(', ')}${more})`;
}
