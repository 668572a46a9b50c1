import type { CallerAccess } from '@search-mcp/catalog';
import type { OAuthRole } from '@search-mcp/shared';
import { claimMatches } from './oauth-resource/token-policy.js';

/** What a token's roles give it (docs/oauth-in-front.md, "Roles"). */
export interface RoleGrant {
  access: CallerAccess;
  admin: boolean;
}

/**
 * The roles of `auth.oauth.roles` a token matches, one grant each: it may use a project and a tool where one of them
 * allows both (roles never add up to more than one of them allows). A role matches when the token has all of its
 * `scopes` and all of its `claims`. Without roles, every valid token may use everything (no admin). Undefined when
 * roles are configured and none matches: the caller is refused (403).
 */
export function grantOf(
  roles: readonly OAuthRole[] | undefined,
  token: { scopes: readonly string[]; claims: Readonly<Record<string, unknown>> },
): RoleGrant | undefined {
  if (roles === undefined) return { access: { grants: [{}] }, admin: false };
  const matched = roles.filter(
    (role) =>
      (role.scopes ?? []).every((scope) => token.scopes.includes(scope)) &&
      Object.entries(role.claims ?? {}).every(([name, value]) => claimMatches(token.claims[name], value)),
  );
  if (matched.length === 0) return undefined;
  const grants = matched.map((role) => {
    const tools = toolPatternsOf(role);
    return { ...(role.projects ? { projects: role.projects } : {}), ...(tools ? { tools } : {}) };
  });
  return { access: { grants }, admin: matched.some((role) => role.admin === true) };
}

/** A role's tools as `server:tool` / `server:*` patterns: `servers` and `tools` together mean both must allow it. */
function toolPatternsOf(role: OAuthRole): string[] | undefined {
  if (role.tools === undefined) return role.servers?.map((server) => `${server}:*`);
  if (role.servers === undefined) return [...role.tools];
  const servers = role.servers;
  return role.tools.filter((pattern) => servers.some((server) => pattern.startsWith(`${server}:`)));
}
