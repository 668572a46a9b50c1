import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolInfo } from '@search-mcp/shared';
import { describe, expect, it, vi } from 'vitest';
import { Bm25SearchProvider, splitClauses } from './bm25-search-provider.js';

function tool(serverName: string, toolName: string, description: string, extra: Partial<ToolInfo> = {}): ToolInfo {
  return {
    toolKey: `${serverName}:${toolName}`,
    toolName,
    serverName,
    description,
    inputSchema: { type: 'object' },
    ...extra,
  };
}

/** A small, realistic catalog: several servers with overlapping vocabulary. */
const catalog: ToolInfo[] = [
  tool('filesystem', 'read_file', 'Read the complete contents of a file from the file system.', {
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Path of the file' } } },
  }),
  tool('filesystem', 'write_file', 'Create a new file or overwrite an existing file with new content.'),
  tool('filesystem', 'list_directory', 'Get a detailed listing of all files and directories in a specified path.'),
  tool('filesystem', 'move_file', 'Move or rename files and directories.'),
  tool('github', 'create_pull_request', 'Create a new pull request in a GitHub repository'),
  tool('github', 'list_issues', 'List issues in a GitHub repository with filtering options'),
  tool('github', 'get_file_contents', 'Get the contents of a file or directory from a GitHub repository'),
  tool('slack', 'slack_post_message', 'Post a new message to a Slack channel'),
  tool('slack', 'slack_list_channels', 'List public channels in the workspace'),
  tool('kubernetes', 'kubectl_logs', 'Get logs from Kubernetes resources like pods, deployments, or jobs'),
  tool(
    'kubernetes',
    'kubectl_get',
    'Get or list Kubernetes resources by resource type, name, and optionally namespace',
  ),
  tool('kubernetes', 'kubectl_scale', 'Scale a Kubernetes deployment'),
  tool('playwright', 'browser_take_screenshot', 'Take a screenshot of the current page.'),
  tool('playwright', 'browser_click', 'Perform click on a web page'),
  tool('playwright', 'browser_navigate', 'Navigate to a URL'),
  tool('postgres', 'query', 'Run a read-only SQL query'),
  tool('maps', 'maps_directions', 'Get directions between two points'),
];

async function top(
  provider: Bm25SearchProvider,
  queries: string[],
  tools = catalog,
  maxResults = 5,
): Promise<string[]> {
  const results = await provider.search({ queries, tools, maxResults });
  return results.map((result) => result.toolKey);
}

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
      catalog,
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
      tools: catalog,
      maxResults: 10,
    });
    expect(results[0]?.toolKey).toBe('playwright:browser_take_screenshot');
    expect(results.map((result) => result.toolKey)).toContain('slack:slack_list_channels');
  });

  it('ignores context when its weight is 0', async () => {
    const keys = await new Bm25SearchProvider({ contextWeight: 0 }).search({
      queries: ['take a screenshot'],
      context: 'slack channels',
      tools: catalog,
      maxResults: 10,
    });
    expect(keys.map((result) => result.toolKey)).not.toContain('slack:slack_list_channels');
  });

  it('ranks each clause of a long task, so every step finds its tool', async () => {
    const task =
      'Read the file notes.txt from disk, then post a message to the slack channel. Finally take a screenshot.';
    expect(splitClauses(task)).toEqual([
      'Read the file notes.txt from disk',
      'post a message to the slack channel',
      'Finally take a screenshot',
    ]);
    const keys = await top(new Bm25SearchProvider(), [task], catalog, 5);
    expect(keys).toEqual(
      expect.arrayContaining([
        'filesystem:read_file',
        'slack:slack_post_message',
        'playwright:browser_take_screenshot',
      ]),
    );
  });
});

describe('Bm25SearchProvider: hostile input', () => {
  const hostile = [
    'name:foo^2 bar~1 +baz -qux wild* "unclosed',
    ':^~*+-',
    '\u0000\u0001\u0002\u001b[31m',
    '\ud800\udc00\ud800 lone \udfff',
    '😀🎉👍🏽 👨‍👩‍👧',
    'read file '.repeat(1_100),
    'ファイル'.repeat(2_500),
    '\\ / [ ] { } ( ) < > | & ; ! ? ` $',
    'constructor __proto__ prototype hasOwnProperty toString',
  ];

  it.each(hostile.map((query) => [query.slice(0, 40), query]))('never throws on %j', async (_, query) => {
    const provider = new Bm25SearchProvider();
    const results = await provider.search({ queries: [query], context: query, tools: catalog, maxResults: 10 });
    expect(Array.isArray(results)).toBe(true);
    for (const result of results) expect(result.relevance).toBeGreaterThanOrEqual(0);
  });

  it('returns [] for empty and whitespace-only queries', async () => {
    const provider = new Bm25SearchProvider();
    for (const queries of [[], [''], ['   '], ['\n\t '], ['', '  ']]) {
      expect(await provider.search({ queries, tools: catalog, maxResults: 10 })).toEqual([]);
    }
  });

  it('returns [] when nothing matches, for an empty catalog and for maxResults 0', async () => {
    const provider = new Bm25SearchProvider();
    expect(await provider.search({ queries: ['zzqxv'], tools: catalog, maxResults: 10 })).toEqual([]);
    expect(await provider.search({ queries: ['read file'], tools: [], maxResults: 10 })).toEqual([]);
    expect(await provider.search({ queries: ['read file'], tools: catalog, maxResults: 0 })).toEqual([]);
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
    const odd = { queries: 'read file', tools: catalog, maxResults: Number.NaN } as unknown as Parameters<
      Bm25SearchProvider['search']
    >[0];
    expect((await provider.search(odd)).length).toBeGreaterThan(0);
  });

  it('returns [] when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const results = await new Bm25SearchProvider().search({
      queries: ['read file'],
      tools: catalog,
      maxResults: 5,
      signal: controller.signal,
    });
    expect(results).toEqual([]);
  });
});

describe('Bm25SearchProvider: results', () => {
  it('normalizes relevance to 0..1 with the best at 1, sorted', async () => {
    for (const queries of [['file'], ['read file', 'slack message'], ['ファイルを読む']]) {
      const results = await new Bm25SearchProvider().search({
        queries,
        context: 'github',
        tools: catalog,
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
      expect(await provider.search({ queries: ['file'], tools: catalog, maxResults })).toHaveLength(
        Math.min(maxResults, 5),
      );
    }
  });

  it('returns the tool fields and an explanation naming the matched words and fields', async () => {
    const [first] = await new Bm25SearchProvider().search({ queries: ['read a file'], tools: catalog, maxResults: 3 });
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
      tools: catalog,
      maxResults: 1,
    });
    expect(first?.explanation).toContain('read←読む');
    expect(first?.explanation).toContain('file←ファイル');
  });
});

describe('Bm25SearchProvider: index cache', () => {
  it('builds the index once for the same array', async () => {
    const onIndexBuilt = vi.fn();
    const provider = new Bm25SearchProvider({ onIndexBuilt });
    await provider.search({ queries: ['read file'], tools: catalog, maxResults: 5 });
    await provider.search({ queries: ['slack'], tools: catalog, maxResults: 5 });
    await provider.search({ queries: ['pods', 'logs'], context: 'k8s', tools: catalog, maxResults: 5 });
    expect(provider.indexBuilds).toBe(1);
    expect(onIndexBuilt).toHaveBeenCalledTimes(1);
    expect(onIndexBuilt.mock.calls[0]?.[0]).toMatchObject({ tools: catalog.length });
  });

  it('reuses the index for a new array with the same tools (fingerprint)', async () => {
    const provider = new Bm25SearchProvider();
    await provider.search({ queries: ['read file'], tools: catalog, maxResults: 5 });
    await provider.search({ queries: ['read file'], tools: [...catalog], maxResults: 5 });
    await provider.search({ queries: ['read file'], tools: catalog.map((t) => ({ ...t })), maxResults: 5 });
    expect(provider.indexBuilds).toBe(1);
  });

  it('rebuilds when the tool set changes', async () => {
    const provider = new Bm25SearchProvider();
    await provider.search({ queries: ['read file'], tools: catalog, maxResults: 5 });
    const added = [...catalog, tool('weather', 'forecast', 'Weather forecast for a city')];
    expect(await top(provider, ['weather'], added)).toEqual(['weather:forecast']);
    expect(provider.indexBuilds).toBe(2);
    const redescribed = catalog.map((t) =>
      t.toolKey === 'postgres:query' ? { ...t, description: `${t.description} now faster` } : t,
    );
    await provider.search({ queries: ['sql'], tools: redescribed, maxResults: 5 });
    expect(provider.indexBuilds).toBe(3);
    // Back to the first set: still cached (small LRU).
    await provider.search({ queries: ['read file'], tools: [...catalog], maxResults: 5 });
    expect(provider.indexBuilds).toBe(3);
  });

  it('evicts the least recently used tool set beyond cacheSize', async () => {
    const provider = new Bm25SearchProvider({ cacheSize: 1 });
    const other = [tool('a', 'x', 'x tool')];
    await provider.search({ queries: ['x'], tools: [...catalog], maxResults: 1 });
    await provider.search({ queries: ['x'], tools: [...other], maxResults: 1 });
    await provider.search({ queries: ['x'], tools: [...catalog], maxResults: 1 });
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

// The 22 real MCP servers' tool lists (the same fixtures as the search benchmark).
// shared/ sits beside the repository (here and in CI); a missing folder fails the suite instead of skipping it.
const fixtureDirectory = fileURLToPath(new URL('../../../../fixtures/real-servers', import.meta.url));

function loadRealServers(): ToolInfo[] {
  const tools: ToolInfo[] = [];
  for (const file of readdirSync(fixtureDirectory).filter((name) => name.endsWith('.tools.json'))) {
    const server = file.slice(0, -'.tools.json'.length);
    const data = JSON.parse(readFileSync(join(fixtureDirectory, file), 'utf8')) as unknown;
    const list = (Array.isArray(data) ? data : (data as { tools: unknown[] }).tools) as Array<{
      name: string;
      description?: string;
      inputSchema?: ToolInfo['inputSchema'];
    }>;
    for (const definition of list) {
      tools.push(
        tool(server, definition.name, definition.description ?? '', {
          inputSchema: definition.inputSchema ?? { type: 'object' },
        }),
      );
    }
  }
  return tools;
}

describe('Bm25SearchProvider: real servers (237 tools)', () => {
  const tools = loadRealServers();
  const provider = new Bm25SearchProvider();

  it.each([
    ['read a file from disk', ['filesystem:read_text_file', 'filesystem:read_file']],
    ['open a pull request on GitHub', ['github:create_pull_request']],
    ['post a message to a slack channel', ['slack:slack_post_message']],
    ['get the logs of a kubernetes pod', ['kubernetes:kubectl_logs']],
    ['take a screenshot of the page', ['playwright:browser_take_screenshot', 'puppeteer:puppeteer_screenshot']],
    ['ファイルを読む', ['filesystem:read_text_file', 'filesystem:read_file']],
    ['k8sのポッドのログ', ['kubernetes:kubectl_logs']],
    ['プルリクを作って', ['github:create_pull_request']],
    ['スラックにメッセージを送る', ['slack:slack_post_message']],
    ['ブラウザでスクリーンショットを撮る', ['playwright:browser_take_screenshot', 'puppeteer:puppeteer_screenshot']],
  ])('%s → top 3 has one of %j', async (query, expected) => {
    expect(tools.length).toBe(237);
    const keys = (await provider.search({ queries: [query], tools, maxResults: 3 })).map((result) => result.toolKey);
    expect(keys.some((key) => expected.includes(key))).toBe(true);
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
    const realTools = loadRealServers();
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
