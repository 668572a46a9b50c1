/**
 * Whether a caller's token may be used with its project (docs/projects-and-tokens.md, "Tokens (HTTP)"), checked
 * before any tool is looked at.
 */
import { AuthenticationError, AuthorizationError, ValidationError } from '@search-mcp/shared';
import type { Caller } from './catalog-types.js';

/** A token a caller's `tokenId` may name, with the projects it may use (no secret needed here). */
export interface CatalogToken {
  id: string;
  projects?: readonly string[];
}

/** Project ids are names from a config; a longer one is a caller filling the caches. */
export const maxProjectIdLength = 256;

/**
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
  if (caller.tokenId === undefined) return;
  const token = tokens.find((entry) => entry.id === caller.tokenId);
  if (!token) throw new AuthenticationError({ message: `Unknown token id '${caller.tokenId}'` });
  if (token.projects && (caller.projectId === undefined || !token.projects.includes(caller.projectId))) {
    const where = caller.projectId === undefined ? 'without a project' : `for project '${caller.projectId}'`;
    throw new AuthorizationError({
      message: `Token '${token.id}' may not be used ${where}; it is limited to: ${token.projects.join(', ')}`,
    });
  }
}
