import { describe, expect, it } from 'vitest';
import { formatHybridCheck } from './doctor-hybrid-check.js';

describe('formatHybridCheck', () => {
  it('says how to install the model package when it is missing', () => {
    const lines = formatHybridCheck({
      loaded: false,
      ready: false,
      reason: 'search strategy "hybrid" needs the package @search-mcp/embeddings next to Search MCP',
      fix: 'install the model package next to Search MCP: npm install @search-mcp/embeddings',
    });
    expect(lines).toEqual([
      'Hybrid search (search.strategy or a project uses "hybrid"):',
      '  not available, BM25 answers instead: search strategy "hybrid" needs the package @search-mcp/embeddings next to Search MCP',
      '  fix: install the model package next to Search MCP: npm install @search-mcp/embeddings',
    ]);
  });

  it('shows the model, the vectors and the size of the cache', () => {
    const lines = formatHybridCheck({
      loaded: true,
      ready: true,
      status: {
        model: 'minilm-l6-v2-128',
        modelLoaded: true,
        state: 'ready',
        toolSets: 1,
        vectorsInMemory: 237,
        lastBuild: { tools: 237, embedded: 0, fromDisk: 237, fromMemory: 0, durationMs: 41.2 },
        cache: { directory: '/c/minilm', files: 2, vectors: 250, bytes: 3 * 1024 * 1024 },
      },
    });
    expect(lines.slice(1)).toEqual([
      '  model minilm-l6-v2-128: loaded, state ready',
      '  vectors in memory: 237 (1 tool set)',
      '  last build: 237 tools, 0 embedded, 237 from the disk cache, 41 ms',
      '  vector cache: /c/minilm: 250 vectors, 3.0 MB in 2 files',
    ]);
  });
});
