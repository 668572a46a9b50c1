/**
 * The CLI's "did you mean" (commands, strategies, server ids): the one rule of `@search-mcp/shared` (`closestName`),
 * which the config parser and the catalog's not-found answers use too.
 */
export { closestName } from '@search-mcp/shared';
