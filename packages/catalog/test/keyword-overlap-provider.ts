// The custom ranker of the README, kept here so the README's example is the code the tests run.
import type { SearchProvider, SearchProviderRequest, SearchResult } from '../src/index.js';

/** Ranks tools by how many of the query's words appear in their name or description. */
export class KeywordOverlapProvider implements SearchProvider {
  readonly id = 'keyword-overlap';

  async search({ queries, tools, maxResults }: SearchProviderRequest): Promise<SearchResult[]> {
    const words = new Set(
      queries
        .join(' ')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length > 1),
    );
    if (words.size === 0) return [];
    const scored = tools
      .map((tool) => {
        const text = `${tool.toolName.replace(/[_-]/g, ' ')} ${tool.description}`.toLowerCase();
        return { tool, matched: [...words].filter((word) => text.includes(word)) };
      })
      .filter(({ matched }) => matched.length > 0)
      .sort((a, b) => b.matched.length - a.matched.length || a.tool.toolKey.localeCompare(b.tool.toolKey));
    const best = scored[0]?.matched.length ?? 1;
    return scored.slice(0, maxResults).map(({ tool, matched }) => ({
      toolKey: tool.toolKey,
      toolName: tool.toolName,
      serverName: tool.serverName,
      description: tool.description,
      relevance: matched.length / best, // 0..1, best = 1
      explanation: `matched: ${matched.join(', ')}`,
    }));
  }
}
