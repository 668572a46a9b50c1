import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { connectThroughEntry } from '../../test/stdio-entry-link.js';

// `resources/subscribe` of a 2025 client through Search MCP, which announces `resources.subscribe`, to backends that
// do not: `modern` (the 2.x fixture in 2026-07-28, `resources: {}`, as a 2026 server without subscriptions announces
// them) and `plain` (a 2025 feature fixture with `--no-subscribe`, which still sends `resources/updated` when its
// `touch` tool says so). `subs`, the same fixture with subscriptions, is the control.

let manager: McpClientManager;
let hub: ForwardingHub;
let catalog: ToolCatalog;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const feature = fixtureServerPath('feature-server.mjs');
  const config = parseConfig({
    mcpServers: {
      modern: { command: process.execPath, args: [fixtureServerPath('modern-server.mjs')], protocol: '2026-07-28' },
      plain: {
        command: process.execPath,
        args: [feature, '--name', 'plain', '--resources', '2', '--no-subscribe'],
        protocol: '2025',
      },
      subs: { command: process.execPath, args: [feature, '--name', 'subs', '--resources', '2'], protocol: '2025' },
    },
  });
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions });
  catalog = new ToolCatalog({ sources: [manager], config });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
  expect((await manager.startAll()).map((status) => status.state)).toEqual(['running', 'running', 'running']);
}, 60_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A 2025 client (the 2.x SDK in legacy mode) of a Search MCP server in proxy mode; the uris it heard updated. */
async function front() {
  const client = new Client({ name: 'subscriber', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const updates: string[] = [];
  const waiters: Array<() => void> = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push(notification.params.uri);
    for (const wake of waiters.splice(0)) wake();
  });
  closers.push(
    await connectThroughEntry(client, (context) =>
      createSearchMcpServer({ catalog, manager, hub, mode: 'proxy', era: context.era }),
    ),
  );
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.request({ method: 'tools/call', params: { name, arguments: args } }, z.looseObject({}));
  /** Resolves once `uri` was heard updated (event-driven; the test's timeout bounds it). */
  const heard = (uri: string) =>
    new Promise<void>((resolveHeard) => {
      const check = () => (updates.includes(uri) ? resolveHeard() : waiters.push(check));
      check();
    });
  return { client, updates, call, heard };
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('resources/subscribe to a backend that does not announce subscriptions', () => {
  it('succeeds for a listed, readable resource of a 2026-07-28 backend, and unsubscribe too', async () => {
    const { client } = await front();
    expect(manager.serverCapabilities('modern')?.resources).toEqual({});
    expect((await client.readResource({ uri: 'modern://greeting' })).contents).not.toEqual([]);
    expect(await client.subscribeResource({ uri: 'modern://greeting' })).toEqual({});
    // Twice is still fine (one subscription per session).
    expect(await client.subscribeResource({ uri: 'modern://greeting' })).toEqual({});
    expect(await client.unsubscribeResource({ uri: 'modern://greeting' })).toEqual({});
    // Unsubscribing what was never subscribed is not an error either.
    expect(await client.unsubscribeResource({ uri: 'modern://greeting' })).toEqual({});
  });

  it('still answers "Resource not found" for a uri no server has', async () => {
    const { client } = await front();
    const error = await errorOf(client.subscribeResource({ uri: 'nowhere://x' }));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: -32602, message: 'Resource not found: nowhere://x' });
  });

  it('forwards the updates such a backend sends anyway, to the subscribed session only, until it unsubscribes', async () => {
    const subscriber = await front();
    const bystander = await front();
    expect(await subscriber.client.subscribeResource({ uri: 'res://plain/1' })).toEqual({});
    await subscriber.call('plain__touch', { uri: 'res://plain/1' });
    await subscriber.heard('res://plain/1');
    expect(subscriber.updates).toEqual(['res://plain/1']);

    await subscriber.client.unsubscribeResource({ uri: 'res://plain/1' });
    // A backend that offers subscriptions still gets them; its updates mark when the earlier ones were delivered.
    expect(await subscriber.client.subscribeResource({ uri: 'res://subs/0' })).toEqual({});
    expect((await subscriber.call('subs__subscriptions')).content).toEqual([
      { type: 'text', text: '["res://subs/0"]' },
    ]);
    await subscriber.call('plain__touch', { uri: 'res://plain/1' });
    await subscriber.call('subs__touch', { uri: 'res://subs/0' });
    await subscriber.heard('res://subs/0');
    expect(subscriber.updates).toEqual(['res://plain/1', 'res://subs/0']);
    expect(bystander.updates).toEqual([]);
    await subscriber.client.unsubscribeResource({ uri: 'res://subs/0' });
    expect((await subscriber.call('subs__subscriptions')).content).toEqual([{ type: 'text', text: '[]' }]);
  });
});

describe('resources/subscribe to a backend that offers subscriptions', () => {
  it('two concurrent subscribes of one session to one uri end at the backend with one unsubscribe', async () => {
    const { client, call } = await front();
    // Both reach Search MCP before the backend answered the first; the backend counts subscribers per uri, so a
    // second subscribe counted there would keep the subscription alive after the session's unsubscribe.
    const subscribes = [
      client.subscribeResource({ uri: 'res://subs/1' }),
      client.subscribeResource({ uri: 'res://subs/1' }),
    ];
    expect(await Promise.all(subscribes)).toEqual([{}, {}]);
    expect((await call('subs__subscriptions')).content).toEqual([{ type: 'text', text: '["res://subs/1"]' }]);
    expect(await client.unsubscribeResource({ uri: 'res://subs/1' })).toEqual({});
    expect((await call('subs__subscriptions')).content).toEqual([{ type: 'text', text: '[]' }]);
  });
});
