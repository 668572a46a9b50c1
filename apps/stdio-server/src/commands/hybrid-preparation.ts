import { type HybridSearchReadiness, prepareHybridSearch, type SearchMcpRuntime } from '@search-mcp/runtime';
import type { Caller } from '@search-mcp/catalog';
import { createProgressReporter } from '../terminal-output.js';

/**
 * Waits until hybrid search can rank the caller's tools: the model loaded and the tools' vectors built (a cold
 * build of a few hundred tools takes seconds) or read from the disk cache. A long-running server answers with BM25
 * meanwhile; a one-shot command would then never rank with hybrid, so it waits, and says why: a progress line on a
 * terminal, else one line on stderr when vectors are embedded (not when they come from the cache).
 */
export async function prepareHybridWithProgress(
  runtime: SearchMcpRuntime,
  caller: Caller,
): Promise<HybridSearchReadiness> {
  const tools = await runtime.catalog.visibleTools(caller);
  const progress = createProgressReporter();
  let announced = false;
  try {
    return await prepareHybridSearch(runtime.strategyProviders.hybridProvider, tools, {
      onProgress: ({ done, total }) => {
        if (!announced && !process.stderr.isTTY) {
          process.stderr.write(
            `search-mcp: building the vectors of ${total} tools for hybrid search (first run for these tools; ` +
              'later runs read them from the cache)…\n',
          );
        }
        announced = true;
        progress.update(`Building vectors for hybrid search: ${done}/${total} tools (first run for these tools)`);
      },
    });
  } finally {
    progress.done();
  }
}
