/**
 * What a config reload means for running servers (packages/shared/README.md, "Hot reload"): which servers to
 * start, stop, restart or leave running. Pure; the runtime acts on it.
 */
import { sameJsonValue } from './config-values.js';
import type { ResolvedConfig, ServerConfig } from './resolved-config.js';

export interface ServerConfigDiff {
  /** Ids only in the next config, in its order: start them. */
  added: string[];
  /** Ids only in the previous config, in its order: stop them. */
  removed: string[];
  /** Ids in both whose definition differs, in the next config's order: restart them. */
  changed: string[];
  /** Ids in both with the same definition, in the next config's order: leave them running. */
  unchanged: string[];
}

/**
 * Compares each server's whole resolved definition: transport, `command`, `args`, `env` (variables already
 * expanded, so a changed variable value counts), `cwd`, `url`, `headers`, `enabled`, timeouts, `toolPermissions`,
 * `projects`, the descriptive fields, the written name and `configError` (a fixed entry is changed, so it starts).
 * Records compare by content, not key order; lists (`args`, `projects`, `tags`) in order.
 *
 * Except the per-tool overrides (`tools`): the catalog applies them to what a running server listed, so renaming a
 * tool or fixing its description never restarts the server (and never loses its state or its calls in flight).
 */
export function diffServerConfigs(previous: ResolvedConfig, next: ResolvedConfig): ServerConfigDiff {
  const diff: ServerConfigDiff = { added: [], removed: [], changed: [], unchanged: [] };
  for (const id of Object.keys(previous.mcpServers)) {
    if (!Object.hasOwn(next.mcpServers, id)) diff.removed.push(id);
  }
  for (const [id, server] of Object.entries(next.mcpServers)) {
    const before = Object.hasOwn(previous.mcpServers, id) ? previous.mcpServers[id] : undefined;
    if (before === undefined) diff.added.push(id);
    else if (sameJsonValue(withoutOverrides(before), withoutOverrides(server))) diff.unchanged.push(id);
    else diff.changed.push(id);
  }
  return diff;
}

function withoutOverrides(server: ServerConfig): Omit<ServerConfig, 'tools'> {
  const { tools: _overrides, ...rest } = server;
  return rest;
}
