export type { SearchProvider, SearchProviderRequest, SearchResult } from './search-provider.js';
export { ToolCatalog } from './tool-catalog.js';
export type {
  Caller,
  CatalogExecuteOptions,
  CatalogListFilter,
  CatalogSearchHit,
  CatalogSearchRequest,
  CatalogSearchResponse,
  CatalogSearchStrategy,
  ToolCatalogOptions,
} from './tool-catalog.js';
export type { CatalogSearchFilter } from './search-filter.js';
export { CloudSearchProvider } from './cloud-search-provider.js';
export type { CloudSearchFetch, CloudSearchProviderOptions } from './cloud-search-provider.js';
export { FallbackSearchProvider } from './fallback-search-provider.js';
export type { FallbackAnswer, FallbackSearchProviderOptions } from './fallback-search-provider.js';
export { ToolRegistry } from './tool-registry.js';
export type {
  RegisterOptions,
  ToolExecutionContext,
  ToolImplementation,
  ToolMetadata,
  ToolParameter,
  ToolRegistryEntry,
  ToolRegistryListFilter,
  ToolRegistryOptions,
} from './tool-registry.js';
export { ArgumentValidator } from './argument-validator.js';
export { ToolExecutor } from './tool-executor.js';
export type { ExecutionOptions, ToolExecutorOptions } from './tool-executor.js';
export { closestToolKeys } from './tool-key-suggestions.js';
export { Bm25SearchProvider } from './bm25-search-provider.js';
export type { Bm25FieldWeights, Bm25IndexStats, Bm25SearchProviderOptions } from './bm25-search-provider.js';
