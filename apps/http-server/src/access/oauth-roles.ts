import type { CallerAccess } from '@search-mcp/catalog';
import type { OAuthRole } from '@search-mcp/shared';
import { claimMatches } from './oauth-resource/token-policy.js';

/** What a token's roles give it (docs/oauth-in-front.md, "Roles"). */
export interface RoleGrant {
  access: CallerAccess;
  admin: boolean;
}

/**
 * The roles of `auth.oauth.roles` a token matches, merged: it may use what any of them allows. A role matches when the
 * token has all of its `scopes` and all of its `claims`. Without roles, every valid token may use everything (no
 * admin). Undefined when roles are configured and none matches: the caller is refused (403).
 */
export function grantOf(
  roles: readonly OAuthRole[] | undefined,
  token: { scopes: readonly string[]; claims: Readonly<Record<string, unknown>> },
): RoleGrant | undefined {
  if (roles === undefined) return { access: {}, admin: false };
  const matched = roles.filter(
    (role) =>
      (role.scopes ?? []).every((scope) => token.scopes.includes(scope)) &&
      Object.entries(role.claims ?? {}).every(([name, value]) => claimMatches(token.claims[name], value)),
  );
  if (matched.length === 0) return undefined;
  const unlimited = <T>(pick: (role: OAuthRole) => T | undefined) => matched.some((role) => pick(role) === undefined);
  const projects = unlimited((role) => role.projects)
    ? undefined
    : [...new Set(matched.flatMap((role) => role.projects ?? []))];
  const toolLimits = matched.map(toolPatternsOf);
  const tools = toolLimits.some((limit) => limit === undefined)
    ? undefined
    : [...new Set(toolLimits.flatMap((limit) => limit ?? []))];
  return {
    access: { ...(projects ? { projects } : {}), ...(tools ? { tools } : {}) },
    admin: matched.some((role) => role.admin === true),
  };
}

/** A role's tools as `server:tool` / `server:*` patterns: `servers` and `tools` together mean both must allow it. */
function toolPatternsOf(role: OAuthRole): string[] | undefined {
  if (role.tools === undefined) return role.servers?.map((server) => `${server}:*`);
  if (role.servers === undefined) return [...role.tools];
  const servers = role.servers;
  return role.tools.filter((pattern) => servers.some((server) => pattern.startsWith(`${server}:`)));
}
