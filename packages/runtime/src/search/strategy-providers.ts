import type { SearchProvider } from '@search-mcp/catalog';
import { errorMessage, type Logger, type ResolvedConfig, type SearchStrategy } from '@search-mcp/shared';
import { embeddingsInstallCommand } from './embeddings-install-command.js';
import { LazySearchProvider } from './lazy-search-provider.js';

export interface StrategyProviders {
  hybridProvider?: SearchProvider;
  llmProvider?: SearchProvider;
}

export interface StrategyProviderOptions {
  logger: Logger;
  /** The catalog's BM25 ranker, shared so the index is built once. */
  firstStage: SearchProvider;
}

/** Every strategy the config can ask for: the default and each project's `optimization`. */
export function strategiesInUse(config: ResolvedConfig): Set<SearchStrategy> {
  const used = new Set<SearchStrategy>([config.search.strategy]);
  for (const project of Object.values(config.projects ?? {})) {
    if (project?.optimization) used.add(project.optimization);
  }
  return used;
}

/**
 * The rankers of strategies `hybrid` and `llm`, built only when the config uses them and loaded on first use.
 * `@search-mcp/openai` is a dependency of this package; `@search-mcp/embeddings` (MiniLM weights, ~45 MB) is an
 * optional peer a user installs to opt in. Without it, `hybrid` answers with BM25 and names the command that installs
 * it (`embeddings-install-command.ts`).
 */
export function createStrategyProviders(config: ResolvedConfig, options: StrategyProviderOptions): StrategyProviders {
  const used = strategiesInUse(config);
  const providers: StrategyProviders = {};
  if (used.has('llm')) {
    const settings = config.search.llm ?? {};
    providers.llmProvider = new LazySearchProvider('llm', async () => {
      const { createLlmSearchProvider } = await import('@search-mcp/openai');
      return createLlmSearchProvider(settings, {
        logger: options.logger.child({ component: 'llm-search' }),
        firstStage: options.firstStage,
      });
    });
  }
  if (used.has('hybrid')) {
    const settings = config.search.hybrid ?? {};
    providers.hybridProvider = new LazySearchProvider('hybrid', async () => {
      let module: typeof import('@search-mcp/embeddings');
      try {
        module = await import('@search-mcp/embeddings');
      } catch (error) {
        const message =
          'search strategy "hybrid" needs the package @search-mcp/embeddings next to Search MCP, left out of the ' +
          `default install (its model is ~48 MB); install it with: ${embeddingsInstallCommand()}; ` +
          `answering with BM25 meanwhile (${errorMessage(error)})`;
        options.logger.warn(message);
        throw new Error(message, { cause: error });
      }
      return new module.HybridSearchProvider({
        ...(settings.cacheDirectory !== undefined ? { cacheDirectory: settings.cacheDirectory } : {}),
        ...(settings.bm25Weight !== undefined ? { bm25Weight: settings.bm25Weight } : {}),
        // One BM25 index for the catalog and the blend.
        bm25: options.firstStage,
        logger: options.logger.child({ component: 'hybrid-search' }),
      });
    });
  }
  return providers;
}
