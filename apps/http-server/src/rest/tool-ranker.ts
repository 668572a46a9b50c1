import type { Caller, CloudSearchRequest, CloudSearchResponse } from '@search-mcp/catalog';

/** Ranks the tools of a cloud search request for a caller, with the search this instance is configured with. */
export type ToolRanker = (request: CloudSearchRequest, caller: Caller) => Promise<CloudSearchResponse>;
