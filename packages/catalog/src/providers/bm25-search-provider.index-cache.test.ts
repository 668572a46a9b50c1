import { describe, expect, it, vi } from 'vitest';
import { sampleCatalog, tool, top } from '../../test/search-test-tools.js';
import { Bm25SearchProvider } from './bm25-search-provider.js';

describe('Bm25SearchProvider: index cache', () => {
  it('builds the index once for the same array', async () => {
    const onIndexBuilt = vi.fn();
    const provider = new Bm25SearchProvider({ onIndexBuilt });
    await provider.search({ queries: ['read file'], tools: sampleCatalog, maxResults: 5 });
    await provider.search({ queries: ['slack'], tools: sampleCatalog, maxResults: 5 });
    await provider.search({ queries: ['pods', 'logs'], context: 'k8s', tools: sampleCatalog, maxResults: 5 });
    expect(provider.indexBuilds).toBe(1);
    expect(onIndexBuilt).toHaveBeenCalledTimes(1);
    expect(onIndexBuilt.mock.calls[0]?.[0]).toMatchObject({ tools: sampleCatalog.length });
  });

  it('reuses the index for a new array with the same tools (fingerprint)', async () => {
    const provider = new Bm25SearchProvider();
    await provider.search({ queries: ['read file'], tools: sampleCatalog, maxResults: 5 });
    await provider.search({ queries: ['read file'], tools: [...sampleCatalog], maxResults: 5 });
    await provider.search({ queries: ['read file'], tools: sampleCatalog.map((t) => ({ ...t })), maxResults: 5 });
    expect(provider.indexBuilds).toBe(1);
  });

  it('rebuilds when the tool set changes', async () => {
    const provider = new Bm25SearchProvider();
    await provider.search({ queries: ['read file'], tools: sampleCatalog, maxResults: 5 });
    const added = [...sampleCatalog, tool('weather', 'forecast', 'Weather forecast for a city')];
    expect(await top(provider, ['weather'], added)).toEqual(['weather:forecast']);
    expect(provider.indexBuilds).toBe(2);
    const redescribed = sampleCatalog.map((t) =>
      t.toolKey === 'postgres:query' ? { ...t, description: `${t.description} now faster` } : t,
    );
    await provider.search({ queries: ['sql'], tools: redescribed, maxResults: 5 });
    expect(provider.indexBuilds).toBe(3);
    // Back to the first set: still cached (small LRU).
    await provider.search({ queries: ['read file'], tools: [...sampleCatalog], maxResults: 5 });
    expect(provider.indexBuilds).toBe(3);
  });

  it('evicts the least recently used tool set beyond cacheSize', async () => {
    const provider = new Bm25SearchProvider({ cacheSize: 1 });
    const other = [tool('a', 'x', 'x tool')];
    await provider.search({ queries: ['x'], tools: [...sampleCatalog], maxResults: 1 });
    await provider.search({ queries: ['x'], tools: [...other], maxResults: 1 });
    await provider.search({ queries: ['x'], tools: [...sampleCatalog], maxResults: 1 });
    expect(provider.indexBuilds).toBe(3);
  });

  it('rebuilds for a same-length edit of a description in a new array, and searches the new text', async () => {
    const provider = new Bm25SearchProvider();
    const before = [
      tool('notes', 'save', 'Store a zebra in the notebook'),
      tool('notes', 'find', 'Search notes by words'),
    ];
    expect(await top(provider, ['zebra'], before)).toEqual(['notes:save']);
    // Same keys, same lengths, same parameters: only the words differ.
    const after = [
      tool('notes', 'save', 'Store a koala in the notebook'),
      tool('notes', 'find', 'Search notes by words'),
    ];
    expect(after[0]?.description.length).toBe(before[0]?.description.length);
    expect(await top(provider, ['koala'], after)).toEqual(['notes:save']);
    expect(provider.indexBuilds).toBe(2);
    expect(await top(provider, ['zebra'], [...after])).toEqual([]);
  });
});
