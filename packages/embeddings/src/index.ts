export { HybridSearchProvider } from './hybrid-search-provider.js';
export type { HybridSearchProviderOptions, HybridSearchStatus } from './hybrid-search-provider.js';
export type { HybridVectorBuildStats } from './vectors/tool-vector-builder.js';
export type { VectorCacheStats } from './vectors/vector-cache.js';
export { createMiniLmEmbedder } from './model/minilm-embedder.js';
export type { MiniLmEmbedderOptions } from './model/minilm-embedder.js';
export type { TextEmbedder, TextEmbedOptions } from './model/text-embedder.js';
export type { QueryTranslator } from './text/english-gloss.js';
export { defaultCacheDirectory } from './vectors/default-cache-directory.js';
