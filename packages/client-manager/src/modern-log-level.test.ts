import type { ChildProcess } from 'node:child_process';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { BackendError, silentLogger } from '@search-mcp/shared';
import { fixtureServer, startHttpFixture } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../test/test-support.js';
import { McpClientManager } from './index.js';

/**
 * Log messages of a 2026-07-28 backend (issue 10): such a backend logs only when the request carries a level
 * (`_meta["io.modelcontextprotocol/logLevel"]`, spec MUST). The manager asks for every level until the client side
 * sets one (as a 2025 backend logs at its own default), and then for the level set — kept across a restart. The
 * fixture's `log` tool sends one message at `info` and answers whether its request asked for a level.
 */
describe('log messages of a 2026-07-28 backend', () => {
  let manager: McpClientManager;
  let http: { child: ChildProcess; url: string } | undefined;
  const messages: unknown[] = [];
  const httpMessages: unknown[] = [];

  beforeAll(async () => {
    http = await startHttpFixture();
    manager = new McpClientManager(
      { mcpServers: { modern: fixtureServer('modern-server.mjs'), 'modern-http': { url: http.url } } },
      { logger: silentLogger, shutdownGraceMs: 300 },
    );
    manager.on('log-message', (serverId, params) => {
      if (serverId === 'modern') messages.push(params.data);
      if (serverId === 'modern-http') httpMessages.push(params.data);
    });
    await manager.startAll();
  }, 30_000);

  afterAll(async () => {
    await manager?.close();
    http?.child.kill();
  });

  const log = async (message: string) => {
    const result = await manager.callTool('modern', 'log', { message });
    return result.content;
  };
  const answered = (text: string) => [{ type: 'text', text }];
  /** Logs `marker` at info (which must arrive), then returns every message that arrived so far. */
  const deliveredUpTo = async (marker: string) => {
    expect(await log(marker)).toEqual(answered('logged'));
    // Messages of a request come before its answer on the one stdio stream: once the marker is in, every
    // earlier message that was sent is in too.
    await waitFor(() => messages.includes(marker), `the log message ${marker}`);
    return [...messages];
  };

  it('connects in 2026-07-28', () => {
    const versions = manager.status().map((status) => [status.id, status.protocolVersion]);
    expect(versions).toEqual([
      ['modern', '2026-07-28'],
      ['modern-http', '2026-07-28'],
    ]);
  });

  it('asks for every level while nobody set one: the backend logs and the message reaches log-message', async () => {
    expect(await deliveredUpTo('unset')).toEqual(['unset']);
  });

  it('asks for the level setLoggingLevel set: below it nothing is sent, at it the message arrives', async () => {
    await manager.setLoggingLevel('modern', 'warning');
    expect(await log('below warning')).toEqual(answered('logged'));
    await manager.setLoggingLevel('modern', 'info');
    expect(await deliveredUpTo('at info')).toEqual(['unset', 'at info']);
  });

  it('refuses a level that is not an MCP logging level and keeps the one set before', async () => {
    const refused = await manager.setLoggingLevel('modern', 'loud' as LoggingLevel).catch((error: unknown) => error);
    expect(BackendError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/Invalid log level "loud"/);
    expect(await deliveredUpTo('still info')).toEqual(['unset', 'at info', 'still info']);
  });

  it('keeps the level set across a restart of the backend', async () => {
    await manager.setLoggingLevel('modern', 'error');
    await manager.restart('modern');
    expect(await log('below error after restart')).toEqual(answered('logged'));
    await manager.setLoggingLevel('modern', 'info');
    expect(await deliveredUpTo('info after restart')).toEqual(['unset', 'at info', 'still info', 'info after restart']);
  }, 30_000);

  it('carries the level over Streamable HTTP too (the message comes on the response stream of its request)', async () => {
    const result = await manager.callTool('modern-http', 'log', { message: 'over http' });
    expect(result.content).toEqual(answered('logged'));
    await waitFor(() => httpMessages.includes('over http'), 'the log message over HTTP');
    expect(httpMessages).toEqual(['over http']);
  });
});
