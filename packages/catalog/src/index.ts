export type { SearchProvider, SearchProviderRequest, SearchResult } from './search-provider.js';
