import type { SearchProvider, SearchProviderRequest } from '@search-mcp/catalog';
import type { SearchResult } from '@search-mcp/shared';

/**
 * A ranker whose module is loaded on its first search, so a host pays for `openai` or the embedding model only when
 * a request actually uses that strategy. A failed load is remembered and thrown on every search: the catalog then
 * answers with BM25 and names the reason (`fallbackReason`), instead of the process failing at start.
 */
export class LazySearchProvider implements SearchProvider {
  private loading: Promise<SearchProvider> | undefined;

  constructor(
    readonly id: string,
    private readonly load: () => Promise<SearchProvider>,
  ) {}

  async search(request: SearchProviderRequest): Promise<SearchResult[]> {
    this.loading ??= this.load();
    const provider = await this.loading;
    return provider.search(request);
  }

  /** The loaded ranker, once a search (or `loaded()`) has loaded it. */
  loaded(): Promise<SearchProvider> {
    this.loading ??= this.load();
    return this.loading;
  }
}
