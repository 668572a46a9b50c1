/**
 * The tool lists kept from earlier runs (a `ToolListCache`), as the tools of servers that are not up yet: what
 * `listAllTools` offers while a server is still starting, so discovery answers at once (README, "Discovery before the
 * servers are up"). The definitions are kept, not the catalog's tools: a list read back is shaped by the current
 * entry (its description, projects, tags, tool permissions), exactly as a live one would be.
 */
import { createHash } from 'node:crypto';
import { isPerUserServer, type ServerConfig, serverIdentityKey, type ToolInfo } from '@search-mcp/shared';
import type { ToolListCache } from './tool-list-cache.js';
import { toToolInfo } from './tools/lenient-tool-list.js';

export class CachedToolLists {
  private readonly cache: ToolListCache;
  /** Per entry (a reload brings new entry objects): the tools read back, or null when none are kept. */
  private readonly read = new WeakMap<ServerConfig, ToolInfo[] | null>();

  constructor(cache: ToolListCache) {
    this.cache = cache;
  }

  /**
   * The kept tools of this entry (permission-`false` tools left out, each marked `cached`); undefined when none are
   * kept for it, or for a per-user server (each caller has a list of their own).
   */
  toolsOf(config: ServerConfig): ToolInfo[] | undefined {
    if (!config.enabled || config.configError !== undefined || isPerUserServer(config)) return undefined;
    let tools = this.read.get(config);
    if (tools === undefined) {
      const identity = toolListIdentity(config);
      const definitions = identity === undefined ? undefined : this.cache.read(config.id, identity);
      tools = definitions
        ? definitions.map((definition) => ({ ...toToolInfo(config.id, definition, config), cached: true as const }))
        : null;
      this.read.set(config, tools);
    }
    if (tools === null) return undefined;
    const permissions = config.toolPermissions;
    return tools.filter((tool) => !Object.hasOwn(permissions, tool.toolName) || permissions[tool.toolName]);
  }

  /** A running server listed its tools: kept for the next run (and read back from here in this one). */
  remember(config: ServerConfig, tools: readonly ToolInfo[]): void {
    if (isPerUserServer(config)) return;
    const identity = toolListIdentity(config);
    if (identity === undefined) return;
    const definitions = tools.map(
      (tool) =>
        tool.definition ?? {
          name: tool.originalName ?? tool.toolName,
          description: tool.description,
          inputSchema: tool.inputSchema,
        },
    );
    this.cache.write(config.id, identity, definitions);
    this.read.set(
      config,
      definitions.map((definition) => ({ ...toToolInfo(config.id, definition, config), cached: true as const })),
    );
  }
}

/**
 * What a kept list belongs to: the server's command and arguments (or URL), transport, and the names (never the
 * values) of its variables and headers, as a SHA-256 digest (arguments may carry a token: the file keeps none).
 * Another command, another URL or another variable set is another server, whose tools were never listed.
 */
export function toolListIdentity(config: ServerConfig): string | undefined {
  const key = serverIdentityKey(config.transport === 'stdio' ? config : { url: config.url });
  if (key === undefined) return undefined;
  const names = config.transport === 'stdio' ? Object.keys(config.env) : Object.keys(config.headers);
  const source = JSON.stringify([key, config.transport, names.sort()]);
  return createHash('sha256').update(source).digest('hex');
}
