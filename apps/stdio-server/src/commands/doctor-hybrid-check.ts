import type { Caller } from '@search-mcp/catalog';
import {
  embeddingsInstallCommand,
  type HybridSearchReadiness,
  type SearchMcpRuntime,
  strategiesInUse,
} from '@search-mcp/runtime';
import { prepareHybridWithProgress } from './hybrid-preparation.js';

/** What `doctor` says about hybrid search, when the config uses it (globally or in a project). */
export interface HybridCheck extends HybridSearchReadiness {
  /** How to get it working, when it is not. */
  fix?: string;
}

/**
 * Loads the hybrid ranker and builds (or reads from the cache) the vectors of the caller's tools, as the first
 * hybrid search would: whether the model loads, and how big the vector cache is. Undefined when no strategy is
 * `hybrid`.
 */
export async function checkHybridSearch(runtime: SearchMcpRuntime, caller: Caller): Promise<HybridCheck | undefined> {
  if (!strategiesInUse(runtime.config).has('hybrid')) return undefined;
  const readiness = await prepareHybridWithProgress(runtime, caller);
  if (readiness.ready) return readiness;
  const fix = !readiness.loaded
    ? `install the model package next to Search MCP: ${embeddingsInstallCommand()}`
    : 'check that the cache directory is writable (search.hybrid.cacheDirectory) and that the install is complete';
  return { ...readiness, fix };
}

/** The lines of `doctor`'s text report. */
export function formatHybridCheck(check: HybridCheck): string[] {
  const lines = ['Hybrid search (search.strategy or a project uses "hybrid"):'];
  const status = check.status;
  if (status) {
    lines.push(`  model ${status.model}: ${status.modelLoaded ? 'loaded' : 'not loaded'}, state ${status.state}`);
    lines.push(
      `  vectors in memory: ${status.vectorsInMemory} (${status.toolSets} tool set${status.toolSets === 1 ? '' : 's'})`,
    );
    if (status.lastBuild) {
      const build = status.lastBuild;
      lines.push(
        `  last build: ${build.tools} tools, ${build.embedded} embedded, ${build.fromDisk} from the disk cache, ${Math.round(build.durationMs)} ms`,
      );
    }
    lines.push(
      status.cache
        ? `  vector cache: ${status.cache.directory}: ${status.cache.vectors} vectors, ${formatBytes(status.cache.bytes)} in ${status.cache.files} file${status.cache.files === 1 ? '' : 's'}`
        : '  vector cache: off (vectors are kept in memory only)',
    );
  }
  if (!check.ready) lines.push(`  not available, BM25 answers instead: ${check.reason ?? 'unknown reason'}`);
  if (check.fix) lines.push(`  fix: ${check.fix}`);
  return lines;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
