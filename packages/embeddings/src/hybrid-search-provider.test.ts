/**
 * HybridSearchProvider with the real MiniLM model over the 237 tools of the 22 recorded real servers. The tools are
 * embedded once (in beforeAll, into a temporary cache directory); every other provider here reads them from disk.
 * The providers share one model (the `embedder` option): loading the weights is most of a provider's first query,
 * and what a provider does with its vectors (build, cache, rank) is its own whichever model instance it holds.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { Bm25SearchProvider } from '@search-mcp/catalog';
import { SearchProviderError, type SearchResult, type ToolInfo } from '@search-mcp/shared';
import { loadRealServerTools } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridSearchProvider, type HybridSearchStatus } from './hybrid-search-provider.js';
import { createMiniLmEmbedder } from './model/minilm-embedder.js';
import type { TextEmbedder } from './model/text-embedder.js';
import type { HybridVectorBuildStats } from './vectors/tool-vector-builder.js';

const tools = loadRealServerTools();
const bm25 = new Bm25SearchProvider();
const embedder = createMiniLmEmbedder();
const keys = (results: readonly SearchResult[]) => results.map((result) => result.toolKey);

let cacheRoot: string;
let provider: HybridSearchProvider;
const builds: HybridVectorBuildStats[] = [];
let answerWhileBuilding: SearchResult[];
let statusWhileBuilding: HybridSearchStatus;

beforeAll(async () => {
  cacheRoot = await mkdtemp(join(os.tmpdir(), 'hybrid-search-test-'));
  provider = new HybridSearchProvider({
    cacheDirectory: cacheRoot,
    embedder,
    onVectorsBuilt: (stats) => builds.push(stats),
  });
  // The first search starts the build in the background; BM25 answers it.
  answerWhileBuilding = await provider.search({ queries: ['drop a note in #deploys'], tools, maxResults: 10 });
  statusWhileBuilding = await provider.status();
  await provider.ready(tools);
}, 900_000);

afterAll(async () => {
  await rm(cacheRoot, { recursive: true, force: true });
});

async function packFiles(): Promise<Array<{ name: string; mtimeMs: number }>> {
  const status = await provider.status();
  const directory = status.cache?.directory ?? '';
  const names = (await readdir(directory)).filter((name) => name.endsWith('.vec')).sort();
  return Promise.all(names.map(async (name) => ({ name, mtimeMs: (await stat(join(directory, name))).mtimeMs })));
}

describe('HybridSearchProvider: before its vectors are built', () => {
  it('answers exactly as BM25 does and says it is building', async () => {
    const expected = await bm25.search({ queries: ['drop a note in #deploys'], tools, maxResults: 10 });
    expect(answerWhileBuilding).toEqual(expected);
    expect(statusWhileBuilding.state).toBe('building');
    expect(statusWhileBuilding.vectorsInMemory).toBe(0);
  });
});

describe('HybridSearchProvider: ranking', () => {
  it('finds the tool for a request none of whose words is in the tool text', async () => {
    const note = keys(await provider.search({ queries: ['drop a note in #deploys'], tools, maxResults: 3 }));
    expect(note).toContain('slack:slack_post_message');
    const lexical = keys(await bm25.search({ queries: ['drop a note in #deploys'], tools, maxResults: 10 }));
    expect(lexical).not.toContain('slack:slack_post_message');

    const request = { queries: ["cache the string 'ok' for 60 seconds"], tools, maxResults: 20 };
    const hybridRank = keys(await provider.search(request)).indexOf('redis:set');
    const bm25Rank = keys(await bm25.search(request)).indexOf('redis:set');
    expect(hybridRank).toBeGreaterThanOrEqual(0);
    expect(hybridRank).toBeLessThan(3);
    expect(bm25Rank === -1 || hybridRank < bm25Rank).toBe(true);
  });

  it('keeps the exact matches BM25 finds on top', async () => {
    const results = await provider.search({ queries: ['list pull requests on github'], tools, maxResults: 3 });
    expect(results[0]?.toolKey).toBe('github:list_pull_requests');
    expect(results[0]?.explanation).toMatch(/^matched: .*; meaning: cosine 0\.\d\d$/);
  });

  it('ranks the tools of every query of a request near the top', async () => {
    const results = await provider.search({
      queries: ['take a screenshot of the page', 'post a message to a slack channel'],
      tools,
      maxResults: 6,
    });
    expect(keys(results)).toContain('slack:slack_post_message');
    expect(keys(results).some((key) => key.endsWith('screenshot'))).toBe(true);
  });

  it('gives relevance in 0..1, best first, and a best far below 1 when nothing covers the request', async () => {
    const strong = await provider.search({ queries: ['post a message to a slack channel'], tools, maxResults: 10 });
    const unrelated = { queries: ['bake a loaf of sourdough bread'], tools, maxResults: 3 };
    const closest = await provider.search(unrelated);
    for (const results of [strong, closest]) {
      const relevances = results.map((result) => result.relevance);
      expect(relevances.every((relevance) => relevance >= 0 && relevance <= 1)).toBe(true);
      expect([...relevances].sort((a, b) => b - a)).toEqual(relevances);
    }
    expect(strong[0]?.relevance).toBeGreaterThan(0.95);
    // No word matches (BM25 finds nothing); the closest tools by meaning come back, marked as poor matches.
    expect(await bm25.search(unrelated)).toEqual([]);
    expect(closest).toHaveLength(3);
    expect(closest[0]?.relevance).toBeLessThan(0.3);
    expect(closest[0]?.explanation).toMatch(/^meaning: cosine 0\.\d\d$/);
  });
});

describe('HybridSearchProvider: the vector cache', () => {
  it('reads the vectors from disk in a new process-like provider, embedding nothing and writing nothing', async () => {
    const before = await packFiles();
    expect(before.length).toBeGreaterThan(0);
    const second: HybridVectorBuildStats[] = [];
    const fresh = new HybridSearchProvider({
      cacheDirectory: cacheRoot,
      embedder,
      onVectorsBuilt: (stats) => second.push(stats),
    });
    await fresh.ready(tools);
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ tools: tools.length, embedded: 0, fromMemory: 0 });
    expect(second[0]?.fromDisk).toBe(builds[0]?.embedded);
    expect(await packFiles()).toEqual(before);
    const request = { queries: ['drop a note in #deploys'], tools, maxResults: 5 };
    expect(await fresh.search(request)).toEqual(await provider.search(request));
  });

  it('reuses the vectors in memory when the tool set changes', async () => {
    const fewer = tools.filter((tool) => tool.serverName !== 'slack');
    const before = builds.length;
    await provider.ready(fewer);
    expect(builds.length).toBe(before + 1);
    expect(builds.at(-1)).toMatchObject({ tools: fewer.length, embedded: 0, fromDisk: 0 });
    const results = await provider.search({ queries: ['drop a note in #deploys'], tools: fewer, maxResults: 5 });
    expect(keys(results).every((key) => !key.startsWith('slack:'))).toBe(true);
  });

  it('reports the model, the vectors in memory and the cache on disk', async () => {
    const status = await provider.status();
    expect(status).toMatchObject({ model: 'minilm-l6-v2-128', modelLoaded: true, state: 'ready' });
    expect(status.vectorsInMemory).toBeGreaterThanOrEqual(tools.length);
    expect(status.cache?.directory).toBe(join(cacheRoot, 'minilm-l6-v2-128'));
    expect(status.cache?.vectors).toBe(builds[0]?.embedded);
    const files = await packFiles();
    expect(status.cache?.files).toBe(files.length);
    expect(status.cache?.bytes).toBeGreaterThan((builds[0]?.embedded ?? 0) * 384 * 4);
  });
});

describe('HybridSearchProvider: Japanese', () => {
  it('ranks a Japanese query by BM25 alone when it cannot translate it', async () => {
    const untranslated = new HybridSearchProvider({ cacheDirectory: cacheRoot, embedder, translate: false });
    await untranslated.ready(tools);
    const request = { queries: ['チャンネルにメッセージを投稿'], tools, maxResults: 5 };
    expect(await untranslated.search(request)).toEqual(await bm25.search(request));
  });

  it("embeds a Japanese query through the catalog's vocabulary by default", async () => {
    // The shipped path: no translator passed. 投稿 → post, チャンネル → channel, メッセージ → message.
    const request = { queries: ['チャンネルにメッセージを投稿'], tools, maxResults: 5 };
    const results = await provider.search(request);
    expect(results[0]?.explanation).toMatch(/meaning: cosine 0\.\d\d/);
    expect(keys(results)).toContain('slack:slack_post_message');
    expect(results).not.toEqual(await bm25.search(request));
  });

  it('lets BM25 lead when the gloss lost the action', async () => {
    // 切って ("cut" a branch) is not in the vocabulary: the gloss is "feature branch", a bag of nouns.
    const request = { queries: ['featureブランチを切って'], tools, maxResults: 10 };
    const trusting = new HybridSearchProvider({
      cacheDirectory: cacheRoot,
      embedder,
      translate: () => 'feature branch', // a plain string: a full translation, trusted whole
    });
    await trusting.ready(tools);
    const wary = await provider.search(request);
    const trusted = await trusting.search(request);
    // Both embed the same text; only its share of the blend differs, so the two rankings differ.
    expect(wary.every((result) => result.explanation?.includes('meaning: cosine'))).toBe(true);
    expect(keys(wary)).not.toEqual(keys(trusted));
  });

  it('embeds the English a translator gives', async () => {
    const translated = new HybridSearchProvider({
      cacheDirectory: cacheRoot,
      embedder,
      translate: (text) => (text.includes('覚えて') ? 'remember a fact about a person' : text),
    });
    await translated.ready(tools);
    const results = await translated.search({
      queries: ['アリスはAcmeで働いていると覚えておいて'],
      tools,
      maxResults: 5,
    });
    expect(keys(results).some((key) => key.startsWith('memory:'))).toBe(true);
    expect(results.some((result) => result.explanation?.includes('meaning: cosine'))).toBe(true);
  });
});

describe('HybridSearchProvider: hostile input', () => {
  const valid = (results: unknown, within: readonly ToolInfo[] = tools) => {
    expect(Array.isArray(results)).toBe(true);
    const allowed = new Set(within.filter((tool) => tool && typeof tool === 'object').map((tool) => tool.toolKey));
    for (const result of results as SearchResult[]) {
      expect(allowed.has(result.toolKey)).toBe(true);
      expect(result.relevance).toBeGreaterThanOrEqual(0);
      expect(result.relevance).toBeLessThanOrEqual(1);
    }
    expect(new Set((results as SearchResult[]).map((result) => result.toolKey)).size).toBe(
      (results as unknown[]).length,
    );
  };

  it('never throws on odd queries, contexts and limits', async () => {
    const long = 'read the file and then post it to slack. '.repeat(250);
    const requests: unknown[] = [
      { queries: ['(a OR b) AND title:"x"~2 ^3 -foo +bar * ? \\ :'], tools, maxResults: 5 },
      { queries: ['', '   '], tools, maxResults: 5 },
      { queries: [long], context: long, tools, maxResults: 5 },
      { queries: Array.from({ length: 40 }, (_, i) => `${long} ${i}`), tools, maxResults: 5 },
      { queries: ['🙂🙂 \ud800 lone surrogate \u0000 control'], tools, maxResults: 5 },
      { queries: [42, null, {}, ['nested']], tools, maxResults: 5 },
      { queries: 'read a file', tools, maxResults: 5 },
      { queries: ['read a file'], context: 17, tools, maxResults: Number.NaN },
      { queries: ['read a file'], tools, maxResults: -3 },
      { queries: ['read a file'], tools, maxResults: Number.POSITIVE_INFINITY },
      { queries: ['read a file'], tools: 'not tools', maxResults: 5 },
      { queries: ['read a file'], maxResults: 5 },
    ];
    for (const request of requests) {
      valid(await provider.search(request as never));
    }
    expect(await provider.search(null as never)).toEqual([]);
    expect(await provider.search({ queries: ['read a file'], tools, maxResults: 0 })).toEqual([]);
  });

  it('answers nothing for an aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      await provider.search({ queries: ['read a file'], tools, maxResults: 5, signal: controller.signal }),
    ).toEqual([]);
  });

  it('survives malformed tools in the tool set and never returns them', async () => {
    const odd = [null, {}, { toolKey: 5 }, ...tools.slice(0, 20)] as unknown as ToolInfo[];
    await provider.ready(odd);
    const results = await provider.search({ queries: ['read a file'], tools: odd, maxResults: 10 });
    valid(results, tools.slice(0, 20));
    expect(results.length).toBeGreaterThan(0);
  });
});

describe('HybridSearchProvider: a model that fails', () => {
  const broken: TextEmbedder = {
    id: 'broken-model',
    dimensions: 384,
    loaded: false,
    embed: () => Promise.reject(new Error('the weights could not be read')),
  };

  it('answers with BM25, rejects ready with a SearchProviderError and reports the failure', async () => {
    const failing = new HybridSearchProvider({ cacheDirectory: cacheRoot, embedder: broken });
    const request = { queries: ['drop a note in #deploys'], tools, maxResults: 5 };
    expect(await failing.search(request)).toEqual(await bm25.search(request));
    const error = await failing.ready(tools).catch((caught: unknown) => caught);
    expect(SearchProviderError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('hybrid search could not embed the tools: the weights could not be read');
    expect(await failing.search(request)).toEqual(await bm25.search(request));
    const status = await failing.status();
    expect(status).toMatchObject({ model: 'broken-model', modelLoaded: false, state: 'failed', toolSets: 0 });
    expect(status.lastError).toBe('could not build tool vectors: the weights could not be read');
  });
});
