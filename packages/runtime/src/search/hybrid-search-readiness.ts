/**
 * Getting the `hybrid` strategy ready before a search, with progress: the CLI's `search --strategy hybrid` and
 * `doctor` wait for the vectors of the tool set (a cold build of 237 tools takes about 15 s) instead of answering
 * with BM25 while they are built in the background, as a long-running server does.
 */
import type { SearchProvider } from '@search-mcp/catalog';
import type { HybridSearchStatus } from '@search-mcp/embeddings';
import { errorMessage, type ToolInfo } from '@search-mcp/shared';
import { LazySearchProvider } from './lazy-search-provider.js';

export type { HybridSearchStatus } from '@search-mcp/embeddings';

/** What a ranker offers beyond `search` when it builds an index of its own (`HybridSearchProvider`). */
interface PreparableSearchProvider extends SearchProvider {
  ready(tools: readonly ToolInfo[]): Promise<void>;
  status(): Promise<HybridSearchStatus>;
}

export interface HybridSearchReadiness {
  /** False when `@search-mcp/embeddings` could not be loaded: `reason` says why and how to install it. */
  loaded: boolean;
  /** The model could embed the tools: searches over them are hybrid from now on. */
  ready: boolean;
  /** Why it is not loaded or not ready. */
  reason?: string;
  /** The provider's own account after the wait (model, vectors in memory, the disk cache and its size). */
  status?: HybridSearchStatus;
}

export interface PrepareHybridSearchOptions {
  /** Called while vectors are being embedded (not when they come from the disk cache alone), at most every `intervalMs`. */
  onProgress?: (progress: { done: number; total: number }) => void;
  /** Default 250. */
  intervalMs?: number;
}

/**
 * Loads the hybrid ranker (`runtime.strategyProviders.hybridProvider`), builds the vectors of `tools` and loads
 * the model for queries, reporting progress. Never throws: a missing package or a model that cannot run is
 * returned as `reason` (searches keep answering with BM25, as the contract says).
 */
export async function prepareHybridSearch(
  provider: SearchProvider | undefined,
  tools: readonly ToolInfo[],
  options: PrepareHybridSearchOptions = {},
): Promise<HybridSearchReadiness> {
  if (provider === undefined) return { loaded: false, ready: false, reason: 'no strategy uses hybrid search' };
  let hybrid: SearchProvider;
  try {
    hybrid = provider instanceof LazySearchProvider ? await provider.loaded() : provider;
  } catch (error) {
    return { loaded: false, ready: false, reason: errorMessage(error) };
  }
  if (!isPreparable(hybrid)) return { loaded: true, ready: true };
  let timer: NodeJS.Timeout | undefined;
  if (options.onProgress) {
    const onProgress = options.onProgress;
    timer = setInterval(() => {
      void hybrid.status().then((status) => {
        if (status.state === 'building' && status.progress && status.progress.total > 0) onProgress(status.progress);
      });
    }, options.intervalMs ?? 250);
  }
  let reason: string | undefined;
  try {
    await hybrid.ready(tools);
  } catch (error) {
    reason = errorMessage(error);
  } finally {
    if (timer) clearInterval(timer);
  }
  const status = await hybrid.status();
  return { loaded: true, ready: reason === undefined, ...(reason !== undefined ? { reason } : {}), status };
}

function isPreparable(provider: SearchProvider): provider is PreparableSearchProvider {
  const candidate = provider as Partial<PreparableSearchProvider>;
  return typeof candidate.ready === 'function' && typeof candidate.status === 'function';
}
