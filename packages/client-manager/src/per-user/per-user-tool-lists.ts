import type { ServerConfig, ToolInfo } from '@search-mcp/shared';

/**
 * The tool list of each per-user server as its callers' connections list it (README, "Per-user servers"): the
 * latest non-empty list any of them reported. It outlives the connection that listed it (an idle one is closed, and a
 * call opens it again), so search finds the server's tools while its shared connection waits for an admin's login. It
 * is forgotten when the server is removed or changed by a reload.
 */
export class PerUserToolLists {
  private readonly lists = new Map<string, readonly ToolInfo[]>();

  /** A caller's connection listed `tools`: true when the server's list changed. An empty list (closed) keeps it. */
  update(serverId: string, tools: readonly ToolInfo[]): boolean {
    if (tools.length === 0) return false;
    const known = this.lists.get(serverId);
    if (known && sameTools(known, tools)) return false;
    this.lists.set(serverId, tools);
    return true;
  }

  /** Every listed tool (as `tools-changed` reports them). */
  all(serverId: string): readonly ToolInfo[] {
    return this.lists.get(serverId) ?? [];
  }

  /** The tools whose permission is not `false` (as `listTools` gives them). */
  permitted(config: ServerConfig): ToolInfo[] {
    const permissions = config.toolPermissions;
    return this.all(config.id).filter(
      (tool) => !Object.hasOwn(permissions, tool.toolName) || permissions[tool.toolName],
    );
  }

  forget(serverId: string): boolean {
    return this.lists.delete(serverId);
  }
}

function sameTools(left: readonly ToolInfo[], right: readonly ToolInfo[]): boolean {
  return left.length === right.length && JSON.stringify(left) === JSON.stringify(right);
}
