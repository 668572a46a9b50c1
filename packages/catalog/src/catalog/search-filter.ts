import { ValidationError, type Issue, type ToolInfo } from '@search-mcp/shared';

/** Narrows a search to some of the visible tools before they are ranked (`POST /v1/tools/search` `filters`). */
export interface CatalogSearchFilter {
  /** Only this server's tools. */
  server?: string;
  category?: string;
  /** Only tools having every one of these tags. */
  tags?: readonly string[];
}

/**
 * The cache key of a filter (the same for the same filter however it was written), or undefined when the filter
 * narrows nothing. Checks the shape, since filters arrive from HTTP bodies.
 * @throws ValidationError naming each bad field.
 */
export function searchFilterKey(filter: CatalogSearchFilter | undefined): string | undefined {
  if (filter === undefined || filter === null) return undefined;
  const issues: Issue[] = [];
  if (typeof filter !== 'object' || Array.isArray(filter)) {
    issues.push({ path: 'filter', message: 'must be an object' });
  } else {
    if (filter.server !== undefined && typeof filter.server !== 'string')
      issues.push({ path: 'filter.server', message: 'must be a string' });
    if (filter.category !== undefined && typeof filter.category !== 'string')
      issues.push({ path: 'filter.category', message: 'must be a string' });
    if (
      filter.tags !== undefined &&
      (!Array.isArray(filter.tags) || !filter.tags.every((tag) => typeof tag === 'string'))
    ) {
      issues.push({ path: 'filter.tags', message: 'must be an array of strings' });
    }
  }
  if (issues.length > 0)
    throw new ValidationError({
      issues,
      message: `Invalid search filter: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    });
  const tags = filter.tags && filter.tags.length > 0 ? [...new Set(filter.tags)].sort() : undefined;
  if (filter.server === undefined && filter.category === undefined && tags === undefined) return undefined;
  return JSON.stringify([filter.server ?? null, filter.category ?? null, tags ?? null]);
}

/** Whether a tool passes the filter. */
export function matchesSearchFilter(tool: ToolInfo, filter: CatalogSearchFilter): boolean {
  return (
    (filter.server === undefined || tool.serverName === filter.server) &&
    (filter.category === undefined || tool.category === filter.category) &&
    (filter.tags === undefined || filter.tags.every((tag) => (tool.tags ?? []).includes(tag)))
  );
}
