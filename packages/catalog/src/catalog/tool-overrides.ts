/**
 * The per-tool overrides of the config (`mcpServers.<server>.tools.<name>`) applied to what the sources list, once
 * per listing: every part of the catalog (search index, lists, keys, execution) then sees the tool as the user
 * wrote it. A renamed tool's key is `server:<new name>`, the name users and models see; `originalName` keeps the
 * backend's name for the call.
 *
 * Nothing is lost to a mistake: a rename to a name another tool of the server has (its own, or another rename) is
 * not applied, and the tools keep their own names; an override for a tool the server does not list changes nothing.
 * Both are warnings, with the config path.
 */
import {
  formatConfigPath,
  formatToolKey,
  type ServerConfig,
  type ToolInfo,
  type ToolOverride,
} from '@search-mcp/shared';
import type { ResolvedConfig } from '@search-mcp/shared';
import { configuredServer } from './config-lookup.js';

export interface OverriddenTools {
  tools: ToolInfo[];
  /** Renames not applied and overrides of tools no server lists, each starting with its config path. */
  warnings: string[];
}

/** The override of a backend tool, when the config has one (own entries only: tool names are any string). */
export function overrideOf(server: ServerConfig | undefined, toolName: string): ToolOverride | undefined {
  const overrides = server?.tools;
  return overrides && Object.hasOwn(overrides, toolName) ? overrides[toolName] : undefined;
}

/**
 * The backend's name of a tool named `toolName` in a key, by the config alone (for a server not listing tools now):
 * the tool an override renames to it, or `toolName` itself; undefined when an override renamed it away.
 */
export function configuredOriginalName(server: ServerConfig | undefined, toolName: string): string | undefined {
  for (const [original, override] of Object.entries(server?.tools ?? {})) {
    if (override.name === toolName && original !== toolName) return original;
  }
  const own = overrideOf(server, toolName);
  return own?.name !== undefined && own.name !== toolName ? undefined : toolName;
}

/** Applies the overrides of every configured server to `tools` (a new array; tools without one are kept as they are). */
export function applyToolOverrides(tools: readonly ToolInfo[], config: ResolvedConfig): OverriddenTools {
  const warnings: string[] = [];
  if (!Object.values(config.mcpServers).some((server) => server.tools !== undefined)) {
    return { tools: [...tools], warnings };
  }
  const byServer = new Map<string, ToolInfo[]>();
  for (const tool of tools) {
    const list = byServer.get(tool.serverName);
    if (list) list.push(tool);
    else byServer.set(tool.serverName, [tool]);
  }
  const names = new Map<ToolInfo, string>();
  for (const [serverId, listed] of byServer) {
    const server = configuredServer(config, serverId);
    if (server?.tools === undefined) continue;
    for (const [tool, name] of finalNames(server, listed, warnings)) names.set(tool, name);
    warnings.push(...unmatchedOverrides(server, listed));
  }
  const result: ToolInfo[] = [];
  for (const tool of tools) {
    const override = overrideOf(configuredServer(config, tool.serverName), tool.toolName);
    if (override === undefined) result.push(tool);
    else if (override.enabled !== false) result.push(overridden(tool, override, names.get(tool) ?? tool.toolName));
  }
  return { tools: result, warnings };
}

/**
 * The name each tool of one server is listed under: its override's `name`, unless another tool of the server would
 * then have the same name; such renames are undone (repeatedly, since undoing one can clash with another) and warned.
 */
function finalNames(server: ServerConfig, listed: readonly ToolInfo[], warnings: string[]): Map<ToolInfo, string> {
  const shown = listed.filter((tool) => overrideOf(server, tool.toolName)?.enabled !== false);
  const names = new Map<ToolInfo, string>();
  for (const tool of shown) names.set(tool, overrideOf(server, tool.toolName)?.name ?? tool.toolName);
  for (let changed = true; changed; ) {
    changed = false;
    const owners = new Map<string, ToolInfo[]>();
    for (const [tool, name] of names) owners.set(name, [...(owners.get(name) ?? []), tool]);
    for (const [name, same] of owners) {
      if (same.length < 2) continue;
      for (const tool of same) {
        if (names.get(tool) === tool.toolName) continue;
        names.set(tool, tool.toolName);
        changed = true;
        const others = same.filter((other) => other !== tool).map((other) => JSON.stringify(other.toolName));
        warnings.push(
          `${formatConfigPath(['mcpServers', server.name, 'tools', tool.toolName, 'name'])}: ${JSON.stringify(name)} ` +
            `would also be the name of ${others.join(', ')} of this server; ${JSON.stringify(tool.toolName)} keeps its own name`,
        );
      }
    }
  }
  return names;
}

/** Overrides naming a tool the server does not list (told only for a server listing some tools: one that runs). */
function unmatchedOverrides(server: ServerConfig, listed: readonly ToolInfo[]): string[] {
  if (listed.length === 0) return [];
  const own = new Set(listed.map((tool) => tool.toolName));
  const hiddenByPermission = (name: string) =>
    Object.hasOwn(server.toolPermissions, name) && server.toolPermissions[name] === false;
  return Object.keys(server.tools ?? {})
    .filter((name) => !own.has(name) && !hiddenByPermission(name))
    .map(
      (name) =>
        `${formatConfigPath(['mcpServers', server.name, 'tools', name])}: server "${server.id}" lists no tool ` +
        'of this name; the override does nothing',
    );
}

/** The tool as the override shows it; its definition (passed through in proxy mode) says the same. */
function overridden(tool: ToolInfo, override: ToolOverride, name: string): ToolInfo {
  const annotations =
    override.annotations !== undefined ? { ...tool.annotations, ...override.annotations } : tool.annotations;
  const shown: ToolInfo = {
    ...tool,
    toolName: name,
    toolKey: formatToolKey(tool.serverName, name),
    ...(override.title !== undefined ? { title: override.title } : {}),
    ...(override.description !== undefined ? { description: override.description } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
  };
  if (name !== tool.toolName) shown.originalName = tool.toolName;
  if (tool.definition) {
    shown.definition = {
      ...tool.definition,
      name,
      ...(override.title !== undefined ? { title: override.title } : {}),
      ...(override.description !== undefined ? { description: override.description } : {}),
      ...(annotations !== undefined ? { annotations } : {}),
    };
  }
  return shown;
}
