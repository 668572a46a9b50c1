import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '@search-mcp/catalog';
import { parseConfig } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchMcpRuntime } from '../search-mcp-runtime.js';
import { prepareHybridSearch } from './hybrid-search-readiness.js';
import { LazySearchProvider } from './lazy-search-provider.js';
import { strategiesInUse } from './strategy-providers.js';

const directories: string[] = [];
const runtimes: Array<ReturnType<typeof createSearchMcpRuntime>> = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

function hostTools(): ToolRegistry {
  const registry = new ToolRegistry({ description: 'Host tools' });
  registry.register(
    { name: 'send-message', description: 'Post a message to a chat channel', parameters: [] },
    () => 'sent',
  );
  registry.register({ name: 'read-file', description: 'Read the contents of a file', parameters: [] }, () => 'text');
  return registry;
}

function runtimeFor(search: Record<string, unknown>) {
  const runtime = createSearchMcpRuntime({
    config: parseConfig({ mcpServers: {}, search }),
    registries: [hostTools()],
  });
  runtimes.push(runtime);
  return runtime;
}

describe('search strategies wired by the runtime', () => {
  it('collects the default strategy and every project optimization', () => {
    const config = parseConfig({
      mcpServers: {},
      search: { strategy: 'bm25' },
      projects: { web: { optimization: 'llm' }, docs: { optimization: 'hybrid' }, off: { optimization: null } },
    });
    expect([...strategiesInUse(config)].sort()).toEqual(['bm25', 'hybrid', 'llm']);
  });

  it('ranks with the LLM strategy, and answers with the first stage when the model cannot be reached', async () => {
    // Port 9 (discard) refuses the connection at once: the provider's own fallback answers with BM25.
    const runtime = runtimeFor({
      strategy: 'llm',
      llm: { apiKey: 'sk-test-unreachable', baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 5_000 },
    });
    const response = await runtime.catalog.search({ query: 'post a message to the team channel' });
    expect(response.strategy).toBe('llm');
    expect(response.providerId).toBe('llm');
    expect(response.results[0]?.toolKey).toBe('local:send-message');
  });

  // One test, two runtimes: each runtime loads the MiniLM engine (seconds of CPU), so the cases of hybrid search share
  // them instead of loading it three times.
  it('prepares hybrid search before a search (progress, model, cache on disk), ranks with it, and a second runtime reads the vectors from disk', async () => {
    const cacheDirectory = await mkdtemp(join(tmpdir(), 'search-mcp-hybrid-'));
    directories.push(cacheDirectory);
    const runtime = runtimeFor({ strategy: 'hybrid', hybrid: { cacheDirectory } });
    const tools = await runtime.catalog.visibleTools();
    const progress: Array<{ done: number; total: number }> = [];
    // Loading the model takes seconds before the first text is embedded: the progress of the wait is seen.
    const readiness = await prepareHybridSearch(runtime.strategyProviders.hybridProvider, tools, {
      intervalMs: 1,
      onProgress: (step) => progress.push(step),
    });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((step) => step.total === tools.length && step.done <= step.total)).toBe(true);
    expect(readiness).toMatchObject({ loaded: true, ready: true });
    expect(readiness.status).toMatchObject({ modelLoaded: true, state: 'ready', vectorsInMemory: tools.length });
    expect(readiness.status?.cache).toMatchObject({ directory: expect.stringContaining(cacheDirectory) });
    expect(readiness.status?.cache?.vectors).toBeGreaterThanOrEqual(tools.length);
    expect(readiness.status?.lastBuild).toMatchObject({ tools: tools.length, embedded: tools.length });

    // It ranks through @search-mcp/embeddings.
    const response = await runtime.catalog.search({ query: 'read what a document contains' });
    expect(response.strategy).toBe('hybrid');
    expect(response.providerId).toBe('hybrid');
    expect(response.results.map((hit) => hit.toolKey)).toContain('local:read-file');

    // A second runtime over the same cache answers its first search with hybrid too, and its vectors come from disk
    // instead of being embedded again. Waiting for its build also keeps the folder's removal after the test from
    // racing a cache write (ENOTEMPTY under CI load).
    const again = runtimeFor({ strategy: 'hybrid', hybrid: { cacheDirectory } });
    const first = await again.catalog.search({ query: 'read what a document contains' });
    expect(first).toMatchObject({ strategy: 'hybrid', providerId: 'hybrid' });
    expect(first.results.map((hit) => hit.toolKey)).toContain('local:read-file');
    const second = await prepareHybridSearch(
      again.strategyProviders.hybridProvider,
      await again.catalog.visibleTools(),
    );
    expect(second.status?.cache).toMatchObject({ directory: expect.stringContaining(cacheDirectory) });
    expect(second.status?.lastBuild).toMatchObject({ embedded: 0, fromDisk: tools.length });
  });

  it('says why hybrid search is not prepared when no strategy uses it', async () => {
    const runtime = runtimeFor({ strategy: 'bm25' });
    expect(runtime.strategyProviders).toEqual({});
    expect(await prepareHybridSearch(undefined, await runtime.catalog.visibleTools())).toEqual({
      loaded: false,
      ready: false,
      reason: 'no strategy uses hybrid search',
    });
  });

  it('says why hybrid search cannot load (the package missing), without throwing', async () => {
    const missing = new LazySearchProvider('hybrid', () =>
      Promise.reject(new Error("Cannot find package '@search-mcp/embeddings'")),
    );
    expect(await prepareHybridSearch(missing, [])).toEqual({
      loaded: false,
      ready: false,
      reason: "Cannot find package '@search-mcp/embeddings'",
    });
  });
});
