import { BackendError, ConfigError, ServerNotRunningError } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger, realServerEntry, waitFor } from '../test/test-support.js';
import { McpClientManager, type McpClientManagerEvents } from './index.js';

const feature = (name: string, extra: string[] = []) => fixtureServer('feature-server.mjs', ['--name', name, ...extra]);

describe('resources, prompts, completions and logging (feature-server fixture and server-everything)', () => {
  let manager: McpClientManager;
  const updates: McpClientManagerEvents['resource-updated'][] = [];
  const resourceChanges: string[] = [];
  const logs: McpClientManagerEvents['log-message'][] = [];

  beforeAll(async () => {
    manager = new McpClientManager(
      {
        mcpServers: {
          a: feature('a', [
            '--resources',
            '1050',
            '--page-size',
            '500',
            '--template',
            'tpl://a/{id}',
            '--prompt',
            'greet',
          ]),
          bare: feature('bare', ['--no-subscribe', '--no-logging']),
          everything: { command: process.execPath, args: [realServerEntry('@modelcontextprotocol/server-everything')] },
          off: { ...feature('off'), enabled: false },
        },
      },
      { logger: createRecordingLogger().logger, shutdownGraceMs: 300 },
    );
    manager.on('resource-updated', (...event) => updates.push(event));
    manager.on('resources-changed', (id) => resourceChanges.push(id));
    manager.on('log-message', (...event) => logs.push(event));
    await manager.startAll();
  }, 30_000);

  afterAll(async () => {
    await manager?.close();
  });

  it('pages through resources with the backend cursors, entries unchanged, and reads the last one', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await manager.listResources('a', cursor);
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(uris).toHaveLength(1050);
    expect((await manager.listResources('a')).resources[0]).toEqual({
      uri: 'res://a/0',
      name: 'resource 0',
      mimeType: 'text/plain',
    });
    expect(await manager.readResource('a', 'res://a/1049')).toEqual({
      contents: [{ uri: 'res://a/1049', mimeType: 'text/plain', text: 'a read res://a/1049' }],
    });
  });

  it('lists templates and reads a uri a template matches; a bad cursor is the backend error it is', async () => {
    expect((await manager.listResourceTemplates('a')).resourceTemplates).toEqual([
      { uriTemplate: 'tpl://a/{id}', name: 'template' },
    ]);
    expect(await manager.readResource('a', 'tpl://a/7')).toMatchObject({ contents: [{ text: 'a read tpl://a/7' }] });
    await expect(manager.listResources('a', 'not-a-cursor')).rejects.toMatchObject({ backendCode: -32602 });
    await expect(manager.readResource('a', 'res://b/1')).rejects.toMatchObject({ backendCode: -32002 });
  });

  it('reads server-everything resources: a static document and a template', async () => {
    const page = await manager.listResources('everything');
    expect(page.resources.map((resource) => resource.uri)).toContain('demo://resource/static/document/architecture.md');
    const templates = await manager.listResourceTemplates('everything');
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toContain(
      'demo://resource/dynamic/text/{resourceId}',
    );
    const read = await manager.readResource('everything', 'demo://resource/dynamic/text/5');
    expect(read.contents).toEqual([expect.objectContaining({ uri: 'demo://resource/dynamic/text/5' })]);
  });

  it('counts subscriptions per uri: the backend hears subscribe once and unsubscribe after the last', async () => {
    const subscribed = async () =>
      JSON.parse(
        String(
          ((await manager.callTool('a', 'subscriptions', {})).content?.[0] as { text?: string } | undefined)?.text,
        ),
      ) as string[];
    await manager.subscribeResource('a', 'res://a/1');
    await manager.subscribeResource('a', 'res://a/1');
    expect(await subscribed()).toEqual(['res://a/1']);
    await manager.callTool('a', 'touch', { uri: 'res://a/1' });
    await waitFor(() => updates.some(([id, params]) => id === 'a' && params.uri === 'res://a/1'), 'the update');
    await manager.unsubscribeResource('a', 'res://a/1');
    expect(await subscribed()).toEqual(['res://a/1']);
    await manager.unsubscribeResource('a', 'res://a/1');
    expect(await subscribed()).toEqual([]);
  });

  it('renews subscriptions and the logging level after a restart', async () => {
    await manager.subscribeResource('a', 'res://a/2');
    await manager.setLoggingLevel('a', 'error');
    await manager.restart('a');
    await waitFor(async () => {
      const result = await manager.callTool('a', 'subscriptions', {});
      return String((result.content?.[0] as { text?: string } | undefined)?.text).includes('res://a/2');
    }, 'the renewed subscription');
    const level = await manager.callTool('a', 'current-level', {});
    expect((level.content?.[0] as { text?: string } | undefined)?.text).toBe('error');
    await manager.unsubscribeResource('a', 'res://a/2');
  });

  it('sets the logging level at the backend: only messages at or above it arrive', async () => {
    await manager.setLoggingLevel('a', 'warning');
    const before = logs.length;
    await manager.callTool('a', 'log', { level: 'debug', message: 'too quiet' });
    await manager.callTool('a', 'log', { level: 'error', message: 'loud' });
    await waitFor(() => logs.length > before, 'the error message');
    expect(logs.slice(before)).toEqual([['a', { level: 'error', logger: 'a', data: 'loud' }]]);
  });

  it('gets prompts and completions as the backend answers them', async () => {
    expect((await manager.listPrompts('a')).prompts).toEqual([
      { name: 'greet', description: 'Prompt greet of a', arguments: [{ name: 'topic', required: false }] },
    ]);
    expect(await manager.getPrompt('a', 'greet', { topic: 'tests' })).toEqual({
      description: 'greet from a',
      messages: [{ role: 'user', content: { type: 'text', text: 'greet about tests' } }],
    });
    const prompt = await manager.getPrompt('everything', 'args-prompt', { city: 'Tokyo' });
    expect(JSON.stringify(prompt.messages)).toContain('Tokyo');
    const completed = await manager.complete('everything', {
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(completed).toMatchObject({ completion: { values: ['Engineering'] } });
    const names = await manager.complete('everything', {
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(names).toMatchObject({ completion: { values: ['David', 'Eve', 'Frank'] } });
    await expect(manager.getPrompt('a', 'nope')).rejects.toMatchObject({ backendCode: -32602 });
  });

  it('answers for a server lacking a capability: empty lists without a round trip, -32601 otherwise', async () => {
    const bare = new McpClientManager(
      {
        mcpServers: {
          tools: fixtureServer('stdio-fixture-server.mjs'),
        },
      },
      { logger: createRecordingLogger().logger, shutdownGraceMs: 300 },
    );
    try {
      await bare.startAll();
      expect(await bare.listResources('tools')).toEqual({ resources: [] });
      expect(await bare.listResourceTemplates('tools')).toEqual({ resourceTemplates: [] });
      expect(await bare.listPrompts('tools')).toEqual({ prompts: [] });
      const failure = await bare.readResource('tools', 'x://y').catch((error: unknown) => error);
      expect(BackendError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({
        backendCode: -32601,
        message: "MCP server 'tools' does not offer resources/read",
      });
      await expect(
        bare.complete('tools', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
      ).rejects.toMatchObject({ backendCode: -32601 });
    } finally {
      await bare.close();
    }
    await expect(manager.subscribeResource('bare', 'res://bare/1')).rejects.toMatchObject({
      backendCode: -32601,
      message: "MCP server 'bare' does not offer resources/subscribe",
    });
    // Logging is remembered for a server without it, never sent.
    await expect(manager.setLoggingLevel('bare', 'info')).resolves.toBeUndefined();
  });

  it('rejects unknown and stopped servers like tool calls do', async () => {
    await expect(manager.listResources('nope')).rejects.toThrow(ConfigError);
    await expect(manager.readResource('off', 'res://off/0')).rejects.toThrow(ServerNotRunningError);
  });

  it('reports resources-changed when a server with resources connects or goes away', async () => {
    const before = resourceChanges.length;
    await manager.stop('bare');
    await manager.start('bare');
    expect(resourceChanges.slice(before)).toEqual(['bare', 'bare']);
  });
});
