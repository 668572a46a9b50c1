/**
 * Backend log messages to a 2026-07-28 client through `search-mcp-http` (issue 10): the app builds one server
 * instance per 2026 request and keeps no stream outside it, so a backend's `notifications/message` reaches the client
 * on the response stream of its own call to that server, when the call carried a log level
 * (`_meta["io.modelcontextprotocol/logLevel"]`), at that level or above; never without one. Real parts: the app on
 * 127.0.0.1 over a real runtime, a 2025 backend (feature fixture: `log {level, message}`) and a 2026-07-28 one
 * (modern fixture: `log {message}` at info), the 2.x SDK client pinned to 2026-07-28.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';
import { fixtureServersDirectory } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mainToken, type Running, startApp } from './http-test-support.js';

const fixtures = fixtureServersDirectory;
let running: Running;
let client: Client;
const messages: Array<{ level: string; logger?: string; data: unknown }> = [];

beforeAll(async () => {
  running = await startApp({
    backends: 'none',
    config: {
      mcpServers: {
        old: { command: process.execPath, args: [`${fixtures}/feature-server.mjs`, '--name', 'old'] },
        new: { command: process.execPath, args: [`${fixtures}/modern-server.mjs`], protocol: '2026-07-28' },
      },
      exposure: { mode: 'proxy' },
    },
  });
  expect(running.runtime.manager.status().map((status) => [status.id, status.state])).toEqual([
    ['old', 'running'],
    ['new', 'running'],
  ]);
  client = new Client(
    { name: 'log-http', version: '1' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setNotificationHandler('notifications/message', (notification) => {
    messages.push(notification.params as (typeof messages)[number]);
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${mainToken}` } },
    }),
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  await running?.close();
});

const Loose = z.looseObject({});
const call = async (name: string, args: Record<string, unknown>, level?: string) => {
  const result = (await client.request(
    { method: 'tools/call', params: { name, arguments: args, _meta: level ? { [LOG_LEVEL_META_KEY]: level } : {} } },
    Loose,
    { timeout: 30_000 },
  )) as { content?: Array<{ text?: string }> };
  return result.content?.map((block) => block.text).join('');
};

describe('search-mcp-http: backend log messages inside a 2026-07-28 request', () => {
  it('arrive on the call that asked, at its level or above; none on a call without a level', async () => {
    expect(await call('new__log', { message: 'modern backend' }, 'info')).toBe('logged');
    expect(await call('old__log', { level: 'warning', message: 'legacy backend' }, 'warning')).toBe('logged');
    expect(await call('old__log', { level: 'info', message: 'below the level' }, 'warning')).toBe('logged');
    expect(await call('old__log', { level: 'error', message: 'no level asked' })).toBe('logged');
    expect(await call('new__log', { message: 'no level asked either' })).toBe('logged');
    expect(messages.map((message) => [message.level, message.logger, message.data])).toEqual([
      ['info', 'new', 'modern backend'],
      ['warning', 'old', 'legacy backend'],
    ]);
  });
});
