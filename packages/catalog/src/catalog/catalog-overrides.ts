/**
 * The catalog's side of naming: the config's per-tool overrides applied at each listing (with their warnings logged
 * once each), who to tell when a reload changes names, and the names several servers share under
 * `exposure.names: "original"`.
 */
import { type Logger, parseToolKey, type ResolvedConfig, sameJsonValue, type ToolInfo } from '@search-mcp/shared';
import { configuredServer } from './config-lookup.js';
import { applyToolOverrides, overrideOf } from './tool-overrides.js';

export class CatalogOverrides {
  /** The warnings of the latest listing. */
  warnings: readonly string[] = [];
  private readonly logged = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly logger: Logger) {}

  apply(tools: ToolInfo[], config: ResolvedConfig): ToolInfo[] {
    const result = applyToolOverrides(tools, config);
    this.warnings = result.warnings;
    for (const warning of result.warnings) {
      // Every listing finds them again: each is logged once, not at every tool change.
      if (this.logged.has(warning)) continue;
      this.logged.add(warning);
      this.logger.warn('tool override not applied', { warning });
    }
    return result.tools;
  }

  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Whether a reload changes how tools are named or shown, without restarting a server. */
export function namingChanged(previous: ResolvedConfig, next: ResolvedConfig): boolean {
  if (previous.exposure.names !== next.exposure.names) return true;
  const overridesOf = (config: ResolvedConfig) =>
    Object.fromEntries(Object.entries(config.mcpServers).map(([id, server]) => [id, server.tools ?? {}]));
  return !sameJsonValue(overridesOf(previous), overridesOf(next));
}

/** With `exposure.names: "original"`: one warning per name several of these tools' servers share. */
export function sharedNameWarnings(tools: readonly ToolInfo[], config: ResolvedConfig): string[] {
  if (config.exposure.names !== 'original') return [];
  const servers = new Map<string, string[]>();
  for (const tool of tools) servers.set(tool.toolName, [...(servers.get(tool.toolName) ?? []), tool.serverName]);
  return [...servers]
    .filter(([, ids]) => ids.length > 1)
    .map(
      ([name, ids]) =>
        `exposure.names: ${JSON.stringify(name)} is a tool of ${ids.map((id) => JSON.stringify(id)).join(' and ')}; ` +
        `they are listed as ${ids.map((id) => `${id}__${name}`).join(' and ')} (rename one with mcpServers.<server>.tools)`,
    );
}

/** `exposure.pinned` keys that name a tool by the backend's name although an override renamed it. */
export function renamedPinWarnings(config: ResolvedConfig): string[] {
  return config.exposure.pinned.flatMap((key, index) => {
    const parsed = parseToolKey(key);
    const renamed = parsed && overrideOf(configuredServer(config, parsed.serverId), parsed.toolName)?.name;
    if (!parsed || renamed === undefined || renamed === parsed.toolName) return [];
    return [
      `exposure.pinned[${index}]: "${key}" is renamed to "${parsed.serverId}:${renamed}" by mcpServers.<server>.tools; ` +
        'pin the new key',
    ];
  });
}
