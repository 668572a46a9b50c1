import { silentLogger } from '@search-mcp/shared';
import { fixtureServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClientManager } from './index.js';

/**
 * `inFlightOrigins` (issue 10): the origins of the calls to a server in flight now, newest first. A 2026-07-28
 * client hears a backend's log messages only inside its own requests, so the MCP server side asks the manager which
 * client requests are waiting on the server when a message arrives. The feature fixture's `slow {ms}` sends progress
 * every 50 ms until `ms` passed or it is cancelled.
 */
describe('McpClientManager.inFlightOrigins', () => {
  let manager: McpClientManager;

  beforeAll(async () => {
    manager = new McpClientManager(
      { mcpServers: { feature: fixtureServer('feature-server.mjs'), other: fixtureServer('feature-server.mjs') } },
      { logger: silentLogger, shutdownGraceMs: 300 },
    );
    await manager.startAll();
  }, 30_000);

  afterAll(async () => {
    await manager?.close();
  });

  /** A `slow` call that has reached the backend (its first progress came), until `stop()`. */
  async function running(serverId: string, origin?: object) {
    const controller = new AbortController();
    let progressed: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    const settled = manager
      .callTool(
        serverId,
        'slow',
        { ms: 30_000 },
        {
          signal: controller.signal,
          onProgress: () => progressed(),
          ...(origin ? { origin } : {}),
        },
      )
      .then(
        () => 'answered',
        () => 'ended',
      );
    await started;
    return {
      stop: () => {
        controller.abort();
        return settled;
      },
    };
  }

  it('lists the origins of the calls in flight to that server, newest first, until each call settles', async () => {
    const first = { request: 1 };
    const second = { request: 2 };
    expect(manager.inFlightOrigins('feature')).toEqual([]);
    const a = await running('feature', first);
    const b = await running('feature', second);
    const anonymous = await running('feature');
    const elsewhere = await running('other', { request: 3 });
    const listed = manager.inFlightOrigins('feature');
    expect(listed).toHaveLength(2);
    expect(listed[0]).toBe(second);
    expect(listed[1]).toBe(first);
    expect(await a.stop()).toBe('ended');
    expect(manager.inFlightOrigins('feature')).toEqual([second]);
    await Promise.all([b.stop(), anonymous.stop(), elsewhere.stop()]);
    expect(manager.inFlightOrigins('feature')).toEqual([]);
    expect(manager.inFlightOrigins('other')).toEqual([]);
  });

  it('a call that fails at once leaves nothing behind; an unknown server lists nothing', async () => {
    await expect(manager.readResource('feature', 'res://nowhere', { origin: { request: 4 } })).rejects.toThrow();
    expect(manager.inFlightOrigins('feature')).toEqual([]);
    expect(manager.inFlightOrigins('no-such-server')).toEqual([]);
  });
});
