import { Bm25SearchProvider, type ToolCatalog } from '@search-mcp/catalog';
import type { ToolInfo } from '@search-mcp/shared';
import type { ToolRanker } from './catalog-search-route.js';

/**
 * `/catalog/search` ranked the way this instance searches: the caller's configured strategy (`off` answers nothing).
 *
 * Interim: the catalog has no way yet to rank tools it was handed (only its own visible tools), so `bm25` and `cloud`
 * both rank with one BM25 provider kept for the app's life (its index cache works across requests). Requested from
 * the catalog's owner: `ToolCatalog.rank(request, tools, caller)`, which this then calls.
 */
export function rankToolsWithCatalog(catalog: ToolCatalog): ToolRanker {
  const local = new Bm25SearchProvider();
  return async (request, caller) => {
    if (catalog.strategyFor(caller) === 'off') return { results: [] };
    const tools: ToolInfo[] = request.tools.map((tool) => ({
      toolKey: tool.toolKey,
      toolName: tool.toolName,
      serverName: tool.serverName,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema as ToolInfo['inputSchema'] | undefined) ?? { type: 'object' },
      ...(tool.title !== undefined ? { title: tool.title } : {}),
    }));
    const results = await local.search({
      queries: request.query,
      tools,
      maxResults: request.maxResults ?? catalog.config.search.maxResults,
      ...(request.context ? { context: request.context } : {}),
    });
    return { results: results.map((result) => ({ ...result })) };
  };
}
