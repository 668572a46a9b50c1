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

  it('serves a new array of the same tool objects from the kept index, however often it comes', async () => {
    const onIndexBuilt = vi.fn();
    const provider = new Bm25SearchProvider({ onIndexBuilt });
    for (let round = 0; round < 5; round++) {
      expect(await top(provider, ['read file'], sampleCatalog.slice())).toContain('filesystem:read_file');
    }
    expect(provider.indexBuilds).toBe(1);
    expect(onIndexBuilt).toHaveBeenCalledTimes(1);
  });

  it('re-indexes a new array in which one object was replaced by a changed copy', async () => {
    const provider = new Bm25SearchProvider();
    const before = [tool('notes', 'save', 'Store a zebra in the notebook'), tool('notes', 'find', 'Search notes')];
    expect(await top(provider, ['zebra'], before)).toEqual(['notes:save']);
    const after = before.slice();
    after[0] = { ...(before[0] as (typeof before)[number]), description: 'Store a koala in the notebook' };
    expect(await top(provider, ['koala'], after)).toEqual(['notes:save']);
    expect(await top(provider, ['zebra'], after.slice())).toEqual([]);
    expect(provider.indexBuilds).toBe(2);
    // The first set is still kept: its objects find their index again.
    expect(await top(provider, ['zebra'], before.slice())).toEqual(['notes:save']);
    expect(provider.indexBuilds).toBe(2);
  });

  it('does not serve a kept set to the array it was copied from once the caller grows that array', async () => {
    const provider = new Bm25SearchProvider();
    const tools = [tool('notes', 'save', 'Store a note')];
    await provider.search({ queries: ['note'], tools, maxResults: 5 });
    tools.push(tool('weather', 'forecast', 'Weather forecast for a city'));
    expect(await top(provider, ['weather'], tools)).toEqual(['weather:forecast']);
    expect(await top(provider, ['weather'], tools.slice())).toEqual(['weather:forecast']);
    expect(provider.indexBuilds).toBe(2);
  });

  it('finds both the tools it had indexed and the new ones after the set grows', async () => {
    const provider = new Bm25SearchProvider();
    await provider.search({ queries: ['read file'], tools: sampleCatalog, maxResults: 5 });
    const grown = [...sampleCatalog, tool('weather', 'forecast', 'Weather forecast for a city')];
    expect(await top(provider, ['weather forecast'], grown)).toEqual(['weather:forecast']);
    expect(await top(provider, ['read file'], grown)).toEqual(
      await top(new Bm25SearchProvider(), ['read file'], grown),
    );
  });

  it('indexes the same object twice in one array like two equal tools, and a later set reuses both', async () => {
    const zebra = tool('notes', 'save', 'Store a zebra in the notebook');
    const other = tool('notes', 'find', 'Search notes by words');
    const provider = new Bm25SearchProvider();
    expect(await top(provider, ['zebra'], [zebra, other, zebra])).toEqual(['notes:save']);
    const fresh = new Bm25SearchProvider();
    const grown = [other, zebra, tool('weather', 'forecast', 'Weather forecast for a city')];
    expect(await top(provider, ['zebra'], grown)).toEqual(await top(fresh, ['zebra'], grown));
    expect(await top(provider, ['weather'], grown)).toEqual(['weather:forecast']);
  });
});
