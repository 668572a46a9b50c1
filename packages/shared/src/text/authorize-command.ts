/**
 * The one command that logs Search MCP in to an OAuth-protected server (docs/oauth.md): what every message about a
 * server waiting in `needs-auth` tells the user to run. Server ids are `a-z0-9-` after normalization, so the id goes in
 * as it is.
 */
export function authorizeCommand(serverId: string): string {
  return `search-mcp auth ${serverId}`;
}
