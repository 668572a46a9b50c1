/**
 * What an OAuth caller may use beyond its project (docs/oauth-in-front.md, "Roles"): the tools its roles allow, as
 * tool keys `server:tool` or `server:*`. The one place this rule is applied: the catalog narrows listings, searches,
 * lookups, calls and the servers whose resources and prompts a caller reaches with it, so REST and MCP agree.
 */
import type { CallerAccess } from './catalog-types.js';

/** Whether the caller may use anything of `serverId` (no limit: yes). */
export function isServerAllowed(access: CallerAccess | undefined, serverId: string): boolean {
  const tools = access?.tools;
  if (tools === undefined) return true;
  const prefix = `${serverId}:`;
  return tools.some((pattern) => pattern.startsWith(prefix));
}

/** Whether the caller may use the tool `toolKey` (`server:tool`) of `serverId` (no limit: yes). */
export function isToolAllowed(access: CallerAccess | undefined, serverId: string, toolKey: string): boolean {
  const tools = access?.tools;
  if (tools === undefined) return true;
  return tools.includes(toolKey) || tools.includes(`${serverId}:*`);
}

/** The cache key of an access limit (`''` for none), the same however its patterns are ordered. */
export function accessKey(access: CallerAccess | undefined): string {
  if (access?.tools === undefined) return '';
  return JSON.stringify([...new Set(access.tools)].sort());
}
