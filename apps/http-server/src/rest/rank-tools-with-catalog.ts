import type { ToolCatalog } from '@search-mcp/catalog';
import type { ToolInfo } from '@search-mcp/shared';
import type { ToolRanker } from './tool-ranker.js';

/**
 * `/catalog/search` ranked the way this instance searches: the caller's configured strategy (`bm25`, `hybrid`, `llm`,
 * `cloud`, each falling back to BM25; `off` answers nothing), through `ToolCatalog.rank` over the tools sent.
 */
export function rankToolsWithCatalog(catalog: ToolCatalog): ToolRanker {
  return async (request, caller) => {
    const tools: ToolInfo[] = request.tools.map((tool) => ({
      toolKey: tool.toolKey,
      toolName: tool.toolName,
      serverName: tool.serverName,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema as ToolInfo['inputSchema'] | undefined) ?? { type: 'object' },
      ...(tool.title !== undefined ? { title: tool.title } : {}),
    }));
    const response = await catalog.rank(
      {
        query: request.query,
        ...(request.maxResults !== undefined ? { maxResults: request.maxResults } : {}),
        ...(request.context ? { context: request.context } : {}),
      },
      tools,
      caller,
    );
    return {
      results: response.results.map(({ tool: _tool, title: _title, ...result }) => result),
    };
  };
}
