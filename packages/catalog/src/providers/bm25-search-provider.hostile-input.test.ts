import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it } from 'vitest';
import { sampleCatalog } from '../../test/search-test-tools.js';
import { Bm25SearchProvider } from './bm25-search-provider.js';

const catalogKeys = new Set(sampleCatalog.map((tool) => tool.toolKey));

/** Keys of the catalog, each once, relevance in 0..1 and never rising: what any answer must look like. */
function expectWellFormed(results: Awaited<ReturnType<Bm25SearchProvider['search']>>): void {
  const keys = results.map((result) => result.toolKey);
  expect(keys.every((key) => catalogKeys.has(key))).toBe(true);
  expect(new Set(keys).size).toBe(keys.length);
  const relevances = results.map((result) => result.relevance);
  for (const relevance of relevances) {
    expect(relevance).toBeGreaterThan(0);
    expect(relevance).toBeLessThanOrEqual(1);
  }
  expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
}

describe('Bm25SearchProvider: hostile input', () => {
  // Each input with what it must find on its own: syntax characters are plain text, and text without words finds
  // nothing.
  const hostile: Array<[label: string, query: string, expectedTop: (key: string | undefined) => boolean]> = [
    ['query syntax', 'name:foo^2 bar~1 +baz -qux wild* "unclosed', (key) => key === 'kubernetes:kubectl_get'],
    ['syntax characters only', ':^~*+-', (key) => key === undefined],
    ['control characters', '\u0000\u0001\u0002\u001b[31m', (key) => key === undefined],
    ['lone surrogates', '\ud800\udc00\ud800 lone \udfff', (key) => key === undefined],
    ['emoji', '😀🎉👍🏽 👨‍👩‍👧', (key) => key === undefined],
    ['11 kB of words', 'read file '.repeat(1_100), (key) => key === 'filesystem:read_file'],
    ['10,000 katakana', 'ファイル'.repeat(2_500), (key) => key?.startsWith('filesystem:') === true],
    ['punctuation', '\\ / [ ] { } ( ) < > | & ; ! ? ` $', (key) => key === undefined],
    ['prototype names', 'constructor __proto__ prototype hasOwnProperty toString', (key) => key === undefined],
  ];

  it.each(hostile)('%s: finds what its words say, and nothing breaks', async (_, query, expectedTop) => {
    const provider = new Bm25SearchProvider();
    const alone = await provider.search({ queries: [query], context: query, tools: sampleCatalog, maxResults: 10 });
    expectWellFormed(alone);
    expect(expectedTop(alone[0]?.toolKey)).toBe(true);
    // Next to a real request, as a second query or as the context, it does not push the real answer out.
    const beside = await provider.search({
      queries: ['take a screenshot', query],
      tools: sampleCatalog,
      maxResults: 10,
    });
    expectWellFormed(beside);
    expect(beside.slice(0, 2).map((result) => result.toolKey)).toContain('playwright:browser_take_screenshot');
    const asContext = await provider.search({
      queries: ['take a screenshot'],
      context: query,
      tools: sampleCatalog,
      maxResults: 10,
    });
    expectWellFormed(asContext);
    expect(asContext[0]?.toolKey).toBe('playwright:browser_take_screenshot');
  });

  it('returns [] for empty and whitespace-only queries', async () => {
    const provider = new Bm25SearchProvider();
    for (const queries of [[], [''], ['   '], ['\n\t '], ['', '  ']]) {
      expect(await provider.search({ queries, tools: sampleCatalog, maxResults: 10 })).toEqual([]);
    }
  });

  it('returns [] when nothing matches, for an empty catalog and for maxResults 0', async () => {
    const provider = new Bm25SearchProvider();
    expect(await provider.search({ queries: ['zzqxv'], tools: sampleCatalog, maxResults: 10 })).toEqual([]);
    expect(await provider.search({ queries: ['read file'], tools: [], maxResults: 10 })).toEqual([]);
    expect(await provider.search({ queries: ['read file'], tools: sampleCatalog, maxResults: 0 })).toEqual([]);
  });

  it('survives malformed tools and requests at runtime', async () => {
    const weird = [
      {
        toolKey: 'x:a',
        toolName: 'a',
        serverName: 'x',
        description: 123,
        inputSchema: { type: 'object', properties: 'nope' },
      },
      { toolKey: 'x:b', toolName: null, serverName: 'x', description: 'read file', inputSchema: null, tags: 'oops' },
      null,
      {
        toolKey: 'x:c',
        toolName: 'c',
        serverName: 'x',
        description: 'c',
        inputSchema: { type: 'object', properties: { p: null } },
      },
    ] as unknown as ToolInfo[];
    const provider = new Bm25SearchProvider();
    const results = await provider.search({ queries: ['read file'], tools: weird, maxResults: 10 });
    expect(results.map((result) => result.toolKey)).toEqual(['x:b']);
    const odd = { queries: 'read file', tools: sampleCatalog, maxResults: Number.NaN } as unknown as Parameters<
      Bm25SearchProvider['search']
    >[0];
    expect((await provider.search(odd)).length).toBeGreaterThan(0);
  });

  it('returns [] when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const results = await new Bm25SearchProvider().search({
      queries: ['read file'],
      tools: sampleCatalog,
      maxResults: 5,
      signal: controller.signal,
    });
    expect(results).toEqual([]);
  });
});
