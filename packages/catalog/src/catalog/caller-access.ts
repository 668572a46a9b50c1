/**
 * What an OAuth caller may use beyond its token (docs/oauth-in-front.md, "Roles"): one grant per role it matched,
 * each a set of projects and of tools (`server:tool` or `server:*`; absent: no limit there). A project or tool is
 * usable when ONE grant allows both: two roles never add up to more than either allows. The one place this rule is
 * applied: the catalog narrows listings, searches, lookups, calls and the servers whose resources and prompts a caller
 * reaches with it, so REST and MCP agree.
 */
import type { CallerAccess, CallerGrant } from './catalog-types.js';

/** The grants that allow `projectId` (no project: those without a project limit). */
function grantsFor(access: CallerAccess, projectId: string | undefined): CallerGrant[] {
  return access.grants.filter(
    (grant) => grant.projects === undefined || (projectId !== undefined && grant.projects.includes(projectId)),
  );
}

/** The projects the caller may name at all; undefined: any (one grant has no project limit). */
export function allowedProjects(access: CallerAccess | undefined): readonly string[] | undefined {
  if (access === undefined || access.grants.some((grant) => grant.projects === undefined)) return undefined;
  return [...new Set(access.grants.flatMap((grant) => grant.projects ?? []))];
}

/** Whether the caller may act in `projectId` (no access limit: yes). */
export function isProjectAllowed(access: CallerAccess | undefined, projectId: string | undefined): boolean {
  return access === undefined || grantsFor(access, projectId).length > 0;
}

/**
 * The tool patterns the caller may use in `projectId`, sorted and unique; undefined: every tool (a grant for the
 * project without a tool limit, or no access limit at all). An empty list: nothing.
 */
export function allowedTools(
  access: CallerAccess | undefined,
  projectId: string | undefined,
): readonly string[] | undefined {
  if (access === undefined) return undefined;
  const grants = grantsFor(access, projectId);
  if (grants.some((grant) => grant.tools === undefined)) return undefined;
  return [...new Set(grants.flatMap((grant) => grant.tools ?? []))].sort();
}

/** Whether the caller may use the tool `toolKey` (`server:tool`) of `serverId` in `projectId`. */
export function isToolAllowed(
  access: CallerAccess | undefined,
  projectId: string | undefined,
  serverId: string,
  toolKey: string,
): boolean {
  const tools = allowedTools(access, projectId);
  return tools === undefined || tools.includes(toolKey) || tools.includes(`${serverId}:*`);
}

/** Whether the caller may use some tool of `serverId` in `projectId`: its status, its authorization, notices. */
export function isServerAllowed(
  access: CallerAccess | undefined,
  projectId: string | undefined,
  serverId: string,
): boolean {
  const tools = allowedTools(access, projectId);
  return tools === undefined || tools.some((pattern) => pattern.startsWith(`${serverId}:`));
}

/**
 * Whether the caller may use all of `serverId` in `projectId` (`server:*`, or no tool limit): what reaches past its
 * tools — resources, prompts, completions, its log messages and notifications — needs that much.
 */
export function isWholeServerAllowed(
  access: CallerAccess | undefined,
  projectId: string | undefined,
  serverId: string,
): boolean {
  const tools = allowedTools(access, projectId);
  return tools === undefined || tools.includes(`${serverId}:*`);
}

/** The cache key of the caller's tool limit in a project (`''` for none). */
export function accessKey(access: CallerAccess | undefined, projectId: string | undefined): string {
  const tools = allowedTools(access, projectId);
  return tools === undefined ? '' : JSON.stringify(tools);
}
