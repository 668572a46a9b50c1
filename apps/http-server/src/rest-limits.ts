import { configDefaults } from '@search-mcp/shared';

/**
 * The limits of the REST API (apps/http-server/README.md, routes table), the one place they are written: schemas, docs
 * and README use these.
 */
export const restLimits = {
  /** `GET /v1/tools?limit`: largest page. */
  listPageMax: 100,
  /** `GET /v1/tools?limit`: page size when none is given. */
  listPageDefault: 50,
  /** `POST /v1/tools/search` `limit` and `/catalog/search` `maxResults`: the catalog's own bound (`tool_discovery`'s too). */
  maxResults: configDefaults.maxResultsLimit,
} as const;
