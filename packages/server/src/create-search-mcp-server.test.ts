import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, connect, FakeManager, listenerAdded, nextCall, textOf } from '../test/search-mcp-test-server.js';
import { EXPOSED_NAME_PATTERN } from './exposed-names.js';

describe('meta mode', () => {
  it('lists exactly tool_discovery, tool_execute and the pinned tools, with valid names', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['tool_discovery', 'tool_execute', 'local__echo']);
    expect(tools.every((tool) => EXPOSED_NAME_PATTERN.test(tool.name))).toBe(true);
    expect(tools[2]?.inputSchema).toMatchObject({ required: ['message'] });
  });

  it('sends instructions naming the servers and how to use the meta-tools', async () => {
    const { client } = await connect();
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('tool_discovery');
    expect(instructions).toContain('- fs: Files on disk');
  });

  it('discovers tools at each detail level, as structured content and the same JSON as text', async () => {
    const { client } = await connect();
    const summary = await call(client, 'tool_discovery', { query: ['echo a message', 'say it back'] });
    const structured = summary.structuredContent as { results: Array<Record<string, unknown>> };
    expect(structured.results[0]).toMatchObject({
      toolKey: 'local:echo',
      toolName: 'echo',
      serverName: 'local',
      relevance: 1,
    });
    expect(structured.results[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'The text to echo' } },
      required: ['message'],
    });
    expect(JSON.parse(textOf(summary))).toEqual(structured);
    const minimal = (await call(client, 'tool_discovery', { query: 'count words', detail: 'minimal', maxResults: 1 }))
      .structuredContent as { results: Array<Record<string, unknown>> };
    expect(minimal.results).toHaveLength(1);
    expect(Object.keys(minimal.results[0] ?? {}).sort()).toEqual([
      'description',
      'relevance',
      'serverName',
      'toolKey',
      'toolName',
    ]);
    const none = (await call(client, 'tool_discovery', { query: 'zzqx unrelated gibberish' })).structuredContent as {
      results: unknown[];
    };
    expect(none.results).toEqual([]);
  });

  it('answers bad discovery arguments with an isError result a model can act on', async () => {
    const { client } = await connect();
    const result = await call(client, 'tool_discovery', { maxResults: 3 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Invalid tool_discovery arguments: query: .*Pass query as a string or an array of strings\.$/,
    );
  });

  it('executes a tool by key and returns its result unchanged', async () => {
    const { client } = await connect();
    expect(await call(client, 'tool_execute', { toolKey: 'local:echo', arguments: { message: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: hi' }],
    });
    expect(
      await call(client, 'tool_execute', { toolKey: 'local:echo', arguments: '{"message":"as a string"}' }),
    ).toEqual({ content: [{ type: 'text', text: 'Echo: as a string' }] });
    const rich = await call(client, 'tool_execute', { toolKey: 'local:rich' });
    expect(rich).toEqual({
      content: [
        { type: 'text', text: 'hi', vendorField: 1 },
        { type: 'x-future-block', payload: 42 },
      ],
      structuredContent: { ok: true },
      _meta: { trace: 'abc' },
    });
  });

  it('answers tool_execute failures with isError: nearest keys, every validation problem, server down', async () => {
    const { client } = await connect();
    const unknown = await call(client, 'tool_execute', { toolKey: 'local:ecoh', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(
      'Tool not found: local:ecoh. Did you mean: local:echo? Use tool_discovery to find tools.',
    );
    const invalid = await call(client, 'tool_execute', {
      toolKey: 'local:echo',
      arguments: { message: 5, extra: true },
    });
    expect(textOf(invalid)).toMatch(
      /^Invalid arguments for local:echo: arguments.message: must be string\. Fix the arguments/,
    );
    const down = await call(client, 'tool_execute', { toolKey: 'fs:read_file', arguments: { path: '/x' } });
    expect(textOf(down)).toBe("MCP server 'fs' is not running (temporary; try again shortly)");
    const missingKey = await call(client, 'tool_execute', { arguments: {} });
    expect(textOf(missingKey)).toMatch(/^Invalid tool_execute arguments: toolKey/);
  });

  it('waits a bounded time for starting servers, then says which are still starting', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting', toolCount: 0, restarts: 0 }];
    const { client } = await connect({ manager, discoveryWaitMs: 100 });
    const result = (await call(client, 'tool_discovery', { query: 'read a file' })).structuredContent as {
      notice?: string;
    };
    expect(result.notice).toBe('Still connecting: fs. Their tools are not searched yet; search again shortly.');
  });

  it('names failed servers of the caller in the notice, with their reason', async () => {
    const manager = new FakeManager();
    manager.states = [
      { id: 'fs', state: 'failed', toolCount: 0, restarts: 0, lastError: 'environment variable FS_TOKEN is not set' },
      { id: 'web', state: 'failed', toolCount: 0, restarts: 0, lastError: 'spawn web-server ENOENT' },
    ];
    const { client } = await connect(
      { manager },
      { mcpServers: { fs: { command: 'fs-server' }, web: { command: 'web-server', projects: ['site'] } } },
    );
    const result = (await call(client, 'tool_discovery', { query: 'echo' })).structuredContent as { notice?: string };
    expect(result.notice).toBe(
      'Not available: fs (environment variable FS_TOKEN is not set). Their tools cannot be found or run until this is fixed.',
    );
  });

  it('says when no tool matches the request well, and keeps the best hit below relevance 1', async () => {
    const { client } = await connect();
    const result = (await call(client, 'tool_discovery', { query: 'send an email to the finance team' }))
      .structuredContent as { notice?: string; results: Array<{ relevance: number }> };
    expect(result.notice).toMatch(/^no tool matches 'send an email to the finance team'/);
    expect(result.results[0]?.relevance ?? 0).toBeLessThan(1);
    const good = (await call(client, 'tool_discovery', { query: 'echo a message' })).structuredContent as {
      notice?: string;
    };
    expect(good.notice).toBeUndefined();
  });

  it('searches as soon as the starting servers have settled', async () => {
    const manager = new FakeManager();
    manager.states = [{ id: 'fs', state: 'starting', toolCount: 0, restarts: 0 }];
    const { client } = await connect({ manager, discoveryWaitMs: 60_000 });
    const waiting = listenerAdded(manager, 'status-change');
    const discovery = call(client, 'tool_discovery', { query: 'echo a message' });
    // The discovery is waiting for the server: let it finish connecting.
    await waiting;
    manager.states = [{ id: 'fs', state: 'running', toolCount: 0, restarts: 0 }];
    manager.emit('status-change');
    const result = (await discovery).structuredContent as { notice?: string; results: Array<{ toolKey: string }> };
    expect(result.notice).toBeUndefined();
    expect(result.results[0]?.toolKey).toBe('local:echo');
  });
});

describe('proxy mode', () => {
  it('lists every tool under its exposed name, in the order its server lists them, definitions passed through', async () => {
    const { client } = await connect({ mode: 'proxy' });
    const { tools } = await client.request(
      { method: 'tools/list', params: {} },
      z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) }),
    );
    const names = tools.map((tool) => tool.name);
    // The registry's own order (echo, count-words, rich, … registered first), not sorted by name.
    expect(names.slice(0, 3)).toEqual(['local__echo', 'local__count-words', 'local__rich']);
    expect(names).not.toContain('tool_discovery');
    const hashed = names.find((name) => name.startsWith('local__a-very'));
    expect(hashed).toMatch(/^local__a-very-long[\w-]*_[0-9a-f]{8}$/);
    expect(hashed?.length).toBeLessThanOrEqual(64);
    expect(names.every((name) => EXPOSED_NAME_PATTERN.test(name))).toBe(true);
    expect(await call(client, hashed ?? '', {})).toEqual({ content: [{ type: 'text', text: 'long' }] });
  });

  it('sends tools/list_changed (debounced) when the listed tools change, and not when they do not', async () => {
    const manager = new FakeManager();
    const { client, registry, catalog } = await connect({ mode: 'proxy', manager, listChangedDebounceMs: 20 });
    await client.listTools();
    const received: number[] = [];
    let notified: () => void = () => {};
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      received.push(received.length + 1);
      notified();
    });
    const nextNotification = () =>
      new Promise<void>((resolve) => {
        notified = resolve;
      });

    let notification = nextNotification();
    registry.register({ name: 'fresh', description: 'Just added' }, () => 'new');
    manager.emit('tools-changed');
    manager.emit('tools-changed');
    await notification;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('local__fresh');

    // A change event that changes nothing: the check runs (it lists the tools, from the catalog's unchanged ones at
    // once) but sends nothing. The check runs without I/O, so it is over before the next timer; a notification of it
    // would arrive before the next one.
    const checked = nextCall(catalog, 'visibleToolsNow');
    manager.emit('tools-changed');
    await checked;
    notification = nextNotification();
    registry.register({ name: 'fresher', description: 'Added later' }, () => 'newer');
    manager.emit('tools-changed');
    await notification;
    expect(received).toEqual([1, 2]);
  });
});

describe('the client connected line', () => {
  /** A logger that resolves with the level of its first `client connected` record. */
  function connectedLineLogger() {
    let resolveLevel: (level: string) => void = () => {};
    const level = new Promise<string>((resolve) => {
      resolveLevel = resolve;
    });
    const record = (name: string) => (message: string) => {
      if (message === 'client connected') resolveLevel(name);
    };
    const logger = {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
      child: () => logger,
    };
    return { logger, level };
  }

  it('is info for a connection, debug for a stateless instance (one per HTTP request: it would repeat per call)', async () => {
    const connection = connectedLineLogger();
    await connect({ logger: connection.logger });
    expect(await connection.level).toBe('info');
    const perRequest = connectedLineLogger();
    await connect({ logger: perRequest.logger, stateless: true });
    expect(await perRequest.level).toBe('debug');
  });
});
