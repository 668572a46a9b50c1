import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/config-error.js';
import type { Issue } from '../errors/issue.js';
import { parseConfig } from './parse-config.js';

function issuesOf(input: unknown): Issue[] {
  try {
    parseConfig(input, { env: {} });
  } catch (error) {
    if (ConfigError.isInstance(error)) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig: search strategies and their settings', () => {
  it('accepts every strategy, globally and per project', () => {
    for (const strategy of ['bm25', 'hybrid', 'llm', 'cloud', 'off']) {
      const search = strategy === 'cloud' ? { strategy, cloud: { url: 'https://s' } } : { strategy };
      expect(parseConfig({ mcpServers: {}, search }, { env: {} }).search.strategy).toBe(strategy);
    }
    const config = parseConfig(
      {
        mcpServers: {},
        projects: { a: { optimization: 'hybrid' }, b: { optimization: 'llm' }, c: { optimization: null } },
      },
      { env: {} },
    );
    expect(config.projects).toEqual({
      a: { optimization: 'hybrid' },
      b: { optimization: 'llm' },
      c: { optimization: null },
    });
  });

  it('leaves the search section as it was when no new strategy is used', () => {
    expect(parseConfig({ mcpServers: {} }, { env: {} }).search).toEqual({ strategy: 'bm25', maxResults: 10 });
  });

  it('fills search.llm with its defaults when the llm strategy is used anywhere', () => {
    const defaults = { model: 'gpt-5-mini', timeoutMs: 15000, candidates: 20 };
    expect(parseConfig({ mcpServers: {}, search: { strategy: 'llm' } }, { env: {} }).search.llm).toEqual(defaults);
    const byProject = parseConfig({ mcpServers: {}, projects: { p: { optimization: 'llm' } } }, { env: {} });
    expect(byProject.search).toEqual({ strategy: 'bm25', maxResults: 10, llm: defaults });
    const byHybridProject = parseConfig({ mcpServers: {}, projects: { p: { optimization: 'hybrid' } } }, { env: {} });
    expect(byHybridProject.search.hybrid).toEqual({});
  });

  it('reads search.llm, expanding baseUrl and apiKey like every secret', () => {
    const config = parseConfig(
      {
        mcpServers: {},
        search: {
          strategy: 'llm',
          llm: { model: 'gpt-5', baseUrl: '${LLM_URL}/v1', apiKey: '${OPENAI_KEY}', timeoutMs: 9000, candidates: 100 },
        },
      },
      { env: { LLM_URL: 'http://127.0.0.1:4000', OPENAI_KEY: 'sk-test' } },
    );
    expect(config.search.llm).toEqual({
      model: 'gpt-5',
      baseUrl: 'http://127.0.0.1:4000/v1',
      apiKey: 'sk-test',
      timeoutMs: 9000,
      candidates: 100,
    });
  });

  it('rejects search.llm values out of range, naming each path', () => {
    expect(
      issuesOf({
        mcpServers: {},
        search: { llm: { model: '', baseUrl: 'not a url', timeoutMs: 0, candidates: 101 } },
      }),
    ).toEqual([
      { path: 'search.llm.model', message: 'expected a non-empty string' },
      { path: 'search.llm.timeoutMs', message: 'expected a positive integer' },
      { path: 'search.llm.candidates', message: 'expected an integer from 1 to 100' },
    ]);
    expect(issuesOf({ mcpServers: {}, search: { llm: { baseUrl: 'ftp://h' } } })).toEqual([
      { path: 'search.llm.baseUrl', message: 'expected an http or https URL' },
    ]);
    expect(issuesOf({ mcpServers: {}, search: { llm: { candidates: 0.5 } } })).toEqual([
      { path: 'search.llm.candidates', message: 'expected an integer from 1 to 100' },
    ]);
  });

  it('reads search.hybrid, resolving the cache directory against the config file', () => {
    const config = parseConfig(
      { mcpServers: {}, search: { strategy: 'hybrid', hybrid: { cacheDirectory: 'cache/vectors', bm25Weight: 0.3 } } },
      { env: {}, baseDir: '/etc/search-mcp' },
    );
    expect(config.search.hybrid).toEqual({ cacheDirectory: '/etc/search-mcp/cache/vectors', bm25Weight: 0.3 });
    expect(issuesOf({ mcpServers: {}, search: { hybrid: { bm25Weight: 1.5 } } })).toEqual([
      { path: 'search.hybrid.bm25Weight', message: 'expected a number from 0 to 1' },
    ]);
    expect(issuesOf({ mcpServers: {}, search: { hybrid: { bm25Weight: -0.1, cacheDirectory: '' } } })).toEqual([
      { path: 'search.hybrid.cacheDirectory', message: 'expected a non-empty string' },
      { path: 'search.hybrid.bm25Weight', message: 'expected a number from 0 to 1' },
    ]);
  });
});
