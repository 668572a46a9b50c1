import type { ToolInfo } from '@search-mcp/shared';
import { loadRealServerTools } from '@search-mcp/test-kit';
import { describe, expect, it } from 'vitest';
import { sampleCatalog, tool, top } from '../../test/search-test-tools.js';
import { Bm25SearchProvider } from './bm25-search-provider.js';

describe('Bm25SearchProvider: fields', () => {
  it('has id bm25', () => {
    expect(new Bm25SearchProvider().id).toBe('bm25');
  });

  it('matches tool names split into words', async () => {
    const provider = new Bm25SearchProvider();
    expect((await top(provider, ['take screenshot']))[0]).toBe('playwright:browser_take_screenshot');
    expect((await top(provider, ['kubectl logs']))[0]).toBe('kubernetes:kubectl_logs');
  });

  it('searches parameter names and descriptions', async () => {
    const tools = [
      tool('a', 'run', 'Runs the job.', {
        inputSchema: {
          type: 'object',
          properties: { cronExpression: { type: 'string', description: 'When to repeat' } },
        },
      }),
      tool('b', 'other', 'Does something else entirely.'),
    ];
    expect(await top(new Bm25SearchProvider(), ['cron expression'], tools)).toEqual(['a:run']);
    expect(await top(new Bm25SearchProvider(), ['repeat'], tools)).toEqual(['a:run']);
  });

  it('searches nested object properties and array items one level down', async () => {
    const tools = [
      tool('a', 'bulk', 'Bulk operation.', {
        inputSchema: {
          type: 'object',
          properties: {
            items: { type: 'array', items: { type: 'object', properties: { isbn: { type: 'string' } } } },
            options: { type: 'object', properties: { watermark: { type: 'boolean' } } },
          },
        },
      }),
      tool('b', 'other', 'Other tool.'),
    ];
    expect(await top(new Bm25SearchProvider(), ['isbn'], tools)).toEqual(['a:bulk']);
    expect(await top(new Bm25SearchProvider(), ['watermark'], tools)).toEqual(['a:bulk']);
  });

  it('searches the server id, server description, title, category and tags', async () => {
    const tools = [
      tool('acme-crm', 'find', 'Finds records.', { serverDescription: 'Customer relationship management' }),
      tool('other', 'find', 'Finds records.', { title: 'Invoice finder', category: 'billing', tags: ['accounting'] }),
    ];
    const provider = new Bm25SearchProvider();
    expect((await top(provider, ['customer relationship'], tools))[0]).toBe('acme-crm:find');
    expect((await top(provider, ['acme'], tools))[0]).toBe('acme-crm:find');
    expect((await top(provider, ['invoice'], tools))[0]).toBe('other:find');
    expect((await top(provider, ['billing accounting'], tools))[0]).toBe('other:find');
  });

  it('weighs a name match above a description-only match', async () => {
    const tools = [
      tool('a', 'notes', 'Stores text. Can also delete things when asked to delete.'),
      tool('b', 'delete_note', 'Removes a note.'),
    ];
    expect((await top(new Bm25SearchProvider(), ['delete'], tools))[0]).toBe('b:delete_note');
  });

  it('finds tools through English synonyms of tool verbs', async () => {
    const tools = [tool('b', 'add_user', 'Adds a user account.'), tool('a', 'remove_user', 'Removes a user account.')];
    const relevance = async (provider: Bm25SearchProvider) =>
      Object.fromEntries(
        (await provider.search({ queries: ['delete a user'], tools, maxResults: 5 })).map((r) => [
          r.toolKey,
          r.relevance,
        ]),
      );
    const withSynonyms = await relevance(new Bm25SearchProvider());
    expect(withSynonyms['a:remove_user']).toBe(1);
    expect(withSynonyms['b:add_user']).toBeLessThan(1);
    // Without synonyms only "user" matches, equally in both.
    const without = await relevance(new Bm25SearchProvider({ synonymWeight: 0 }));
    expect(without['a:remove_user']).toBe(without['b:add_user']);
  });
});

describe('Bm25SearchProvider: Japanese and Chinese', () => {
  it('matches a Japanese query against a Japanese description (bigrams, no vocabulary)', async () => {
    const tools = [
      tool('jp', 'kensaku', '社内の文書を全文検索します'),
      tool('jp', 'tenki', '指定した都市の天気予報を返します'),
      tool('en', 'search', 'Search the web'),
    ];
    const provider = new Bm25SearchProvider({ queryExpansion: false });
    expect((await top(provider, ['文書を検索したい'], tools))[0]).toBe('jp:kensaku');
    expect((await top(provider, ['東京の天気予報'], tools))[0]).toBe('jp:tenki');
  });

  it('finds the English read_file tool for ファイルを読む', async () => {
    expect((await top(new Bm25SearchProvider(), ['ファイルを読む']))[0]).toBe('filesystem:read_file');
  });

  it('finds kubectl_logs for k8sのポッドのログ', async () => {
    expect((await top(new Bm25SearchProvider(), ['k8sのポッドのログ']))[0]).toBe('kubernetes:kubectl_logs');
  });

  it.each([
    ['プルリクを作って', 'github:create_pull_request'],
    ['スラックにメッセージを送る', 'slack:slack_post_message'],
    ['ブラウザでスクリーンショットを撮る', 'playwright:browser_take_screenshot'],
    ['ボタンをクリックして', 'playwright:browser_click'],
    ['デプロイメントをスケールして', 'kubernetes:kubectl_scale'],
  ])('%s → %s', async (query, expected) => {
    expect((await top(new Bm25SearchProvider(), [query]))[0]).toBe(expected);
  });

  it('does not find the English tool when expansion is off (the vocabulary is what does it)', async () => {
    expect(await top(new Bm25SearchProvider({ queryExpansion: false }), ['ファイルを読む'])).toEqual([]);
  });

  it('finds a tool described in Chinese with an English query (tool-text translation)', async () => {
    const tools = [
      tool('cn', 'tianqi', '获取指定城市的天气预报'),
      tool('cn', 'xinwen', '获取最新新闻资讯'),
      tool('en', 'get-time', 'Get the current time'),
    ];
    expect((await top(new Bm25SearchProvider(), ['weather forecast'], tools))[0]).toBe('cn:tianqi');
    expect(await top(new Bm25SearchProvider({ documentTranslation: false }), ['weather forecast'], tools)).toEqual([]);
  });
});

describe('Bm25SearchProvider: several queries and context', () => {
  it('keeps a tool that matches only the second query in the results', async () => {
    const keys = await top(
      new Bm25SearchProvider(),
      ['post a message to slack', 'take a screenshot of the page'],
      sampleCatalog,
      5,
    );
    expect(keys).toContain('slack:slack_post_message');
    expect(keys).toContain('playwright:browser_take_screenshot');
    expect(keys.indexOf('playwright:browser_take_screenshot')).toBeLessThan(3);
  });

  it('treats context as weaker evidence than the queries', async () => {
    const results = await new Bm25SearchProvider().search({
      queries: ['take a screenshot'],
      context: 'we were talking about slack channels',
      tools: sampleCatalog,
      maxResults: 10,
    });
    expect(results[0]?.toolKey).toBe('playwright:browser_take_screenshot');
    expect(results.map((result) => result.toolKey)).toContain('slack:slack_list_channels');
  });

  it('ignores context when its weight is 0', async () => {
    const keys = await new Bm25SearchProvider({ contextWeight: 0 }).search({
      queries: ['take a screenshot'],
      context: 'slack channels',
      tools: sampleCatalog,
      maxResults: 10,
    });
    expect(keys.map((result) => result.toolKey)).not.toContain('slack:slack_list_channels');
  });

  it('ranks each clause of a long task, so every step finds its tool', async () => {
    const task =
      'Read the file notes.txt from disk, then post a message to the slack channel. Finally take a screenshot.';
    const keys = await top(new Bm25SearchProvider(), [task], sampleCatalog, 5);
    expect(keys).toEqual(
      expect.arrayContaining([
        'filesystem:read_file',
        'slack:slack_post_message',
        'playwright:browser_take_screenshot',
      ]),
    );
  });
});

describe('Bm25SearchProvider: results', () => {
  it('normalizes relevance to 0..1 with the best at 1, sorted', async () => {
    for (const queries of [['file'], ['read file', 'slack message'], ['ファイルを読む']]) {
      const results = await new Bm25SearchProvider().search({
        queries,
        context: 'github',
        tools: sampleCatalog,
        maxResults: 20,
      });
      expect(results.length).toBeGreaterThan(1);
      expect(results[0]?.relevance).toBe(1);
      for (const result of results) {
        expect(result.relevance).toBeGreaterThan(0);
        expect(result.relevance).toBeLessThanOrEqual(1);
      }
      const relevances = results.map((result) => result.relevance);
      expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
    }
  });

  it('respects maxResults', async () => {
    const provider = new Bm25SearchProvider();
    for (const maxResults of [1, 2, 3, 7]) {
      expect(await provider.search({ queries: ['file'], tools: sampleCatalog, maxResults })).toHaveLength(
        Math.min(maxResults, 5),
      );
    }
  });

  it('returns the tool fields and an explanation naming the matched words and fields', async () => {
    const [first] = await new Bm25SearchProvider().search({
      queries: ['read a file'],
      tools: sampleCatalog,
      maxResults: 3,
    });
    expect(first).toMatchObject({
      toolKey: 'filesystem:read_file',
      toolName: 'read_file',
      serverName: 'filesystem',
      description: 'Read the complete contents of a file from the file system.',
    });
    expect(first?.explanation).toMatch(/^matched: /);
    expect(first?.explanation).toContain('read');
    expect(first?.explanation).toContain('file');
    expect(first?.explanation).toContain('name');
    expect(first?.explanation).toContain('description');
  });

  it('explains a Japanese match with the Japanese word it came from', async () => {
    const [first] = await new Bm25SearchProvider().search({
      queries: ['ファイルを読む'],
      tools: sampleCatalog,
      maxResults: 1,
    });
    expect(first?.explanation).toContain('read←読む');
    expect(first?.explanation).toContain('file←ファイル');
  });
});

describe('Bm25SearchProvider: a server the query names', () => {
  const tool = (serverName: string, toolName: string, description: string): ToolInfo => ({
    toolKey: `${serverName}:${toolName}`,
    toolName,
    serverName,
    description,
    inputSchema: { type: 'object' },
  });
  const tools = [
    tool('github', 'add_issue_comment', 'Add a comment to an existing issue'),
    tool('notion', 'API-create-a-comment', 'Create a comment on a page or block'),
    tool('everything', 'echo', 'Echoes back the input'),
    tool('everything', 'get-env', 'Returns all environment variables'),
    tool('filesystem', 'search_files', 'Search for files you know the name of'),
  ];

  it("ranks the named server's tool first among tools that match the request", async () => {
    const realTools = loadRealServerTools();
    const top = async (serverMentionBoost: number, query: string) =>
      (
        await new Bm25SearchProvider({ serverMentionBoost }).search({
          queries: [query],
          tools: realTools,
          maxResults: 3,
        })
      )[0]?.toolKey;
    // Without the factor, GitHub's comment tool outranks Notion's for a request that names Notion.
    expect(await top(0, 'add a comment to a Notion page')).toBe('github:add_issue_comment');
    expect(await top(0.5, 'add a comment to a Notion page')).toBe('notion:API-create-a-comment');
  });

  it('does not promote tools that match only the server name', async () => {
    const ranked = async (serverMentionBoost: number) =>
      (
        await new Bm25SearchProvider({ serverMentionBoost }).search({
          queries: ['give me everything you know about Acme'],
          tools,
          maxResults: 5,
        })
      ).map((result) => [result.toolKey, result.relevance]);
    expect(await ranked(0.5)).toEqual(await ranked(0));
  });
});
