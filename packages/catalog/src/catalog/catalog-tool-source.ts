/** What the catalog asks of a tool source (types only). */
import type { ToolSource } from '@search-mcp/shared';

/** Why a source does not list a tool it knows. */
export interface DisabledTool {
  /** Shown to the caller in `ToolDisabledError` (e.g. `disabled in the registry`). */
  reason: string;
  /** The projects that see the tool's server (docs/projects-and-tokens.md); absent: callers without a project. */
  serverProjects?: readonly string[];
}

/**
 * A `ToolSource` (`McpClientManager`, `ToolRegistry`, anything else), optionally able to say that a tool it does not
 * list is disabled, so a caller who could otherwise see it learns why instead of getting "not found".
 */
export interface CatalogToolSource extends ToolSource {
  /** The tool's block when it is known but disabled; undefined when it is listed or unknown. */
  disabledTool?(serverId: string, toolName: string): DisabledTool | undefined;
}
