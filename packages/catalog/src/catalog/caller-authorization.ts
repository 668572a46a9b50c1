/**
 * Whether a caller's token may be used with its project (docs/projects-and-tokens.md, "Tokens (HTTP)"), checked
 * before any tool is looked at.
 */
import { AuthenticationError, AuthorizationError, ValidationError } from '@search-mcp/shared';
import { allowedProjects, isProjectAllowed } from './caller-access.js';
import type { Caller } from './catalog-types.js';

/** A token a caller's `tokenId` may name, with the projects it may use (no secret needed here). */
export interface CatalogToken {
  id: string;
  projects?: readonly string[];
}

/** Project ids are names from a config; a longer one is a caller filling the caches. */
export const maxProjectIdLength = 256;

/**
 * An OAuth caller brings its `access` (from its roles) instead of a configured token id.
 * @throws ValidationError for a project id over 256 characters, AuthenticationError for an unknown token id,
 * AuthorizationError for a token used outside its projects.
 */
export function authorizeCaller(caller: Caller, tokens: readonly CatalogToken[]): void {
  if (typeof caller.projectId === 'string' && caller.projectId.length > maxProjectIdLength) {
    throw new ValidationError({
      issues: [{ path: 'projectId', message: `must be at most ${maxProjectIdLength} characters` }],
      message: `Invalid projectId: must be at most ${maxProjectIdLength} characters`,
    });
  }
  if (caller.access) {
    if (!isProjectAllowed(caller.access, caller.projectId)) {
      authorizeProjects(allowedProjects(caller.access) ?? [], caller.tokenId ?? 'oauth', caller.projectId);
    }
    return;
  }
  if (caller.tokenId === undefined) return;
  const token = tokens.find((entry) => entry.id === caller.tokenId);
  if (!token) throw new AuthenticationError({ message: `Unknown token id '${caller.tokenId}'` });
  authorizeProjects(token.projects, token.id, caller.projectId);
}

function authorizeProjects(projects: readonly string[] | undefined, id: string, projectId: string | undefined): void {
  if (projects && (projectId === undefined || !projects.includes(projectId))) {
    const where = projectId === undefined ? 'without a project' : `for project '${projectId}'`;
    throw new AuthorizationError({
      message: `Token '${id}' may not be used ${where}; it is limited to: ${projects.join(', ')}`,
    });
  }
}
