/**
 * Config entries named by a caller. Own entries only: a server id or project id comes from a request, and
 * `constructor` or `toString` must not find `Object.prototype`'s members.
 */
import type { ResolvedConfig, ServerConfig } from '@search-mcp/shared';

export type ProjectConfig = ResolvedConfig['projects'][string];

export function configuredServer(config: ResolvedConfig, serverId: string): ServerConfig | undefined {
  return Object.hasOwn(config.mcpServers, serverId) ? config.mcpServers[serverId] : undefined;
}

export function configuredProject(config: ResolvedConfig, projectId: string | undefined): ProjectConfig | undefined {
  return projectId !== undefined && Object.hasOwn(config.projects, projectId) ? config.projects[projectId] : undefined;
}
