/**
 * Issue 19 over stdio, through the built binary: a 2026-07-28 client subscribes to resources with
 * `subscriptions/listen` (SEP-2575) and hears the backends' `notifications/resources/updated` for those uris on that
 * stream, as it would talking to the servers directly. Backends of both eras: `a` (the 1.x SDK feature fixture, 2025
 * `resources/subscribe`), `everything` (server-everything, 2025, sends an update as soon as its
 * `toggle-subscriber-updates` is on) and `fresh` (a 2026-07-28-only fixture: Search MCP subscribes on its own listen
 * stream there). The acknowledgement names only the uris a server that offers subscriptions serves; the backends hold
 * the subscriptions while the stream is open and drop them when it ends.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectProtocolEraClient, type ProtocolEraSession } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, deadlineMs, eventually, everythingEntry, featureServer, repoRoot } from './forwarding-support.js';

const freshServer = join(repoRoot, 'apps/stdio-server/test/fixtures/modern-resources-server.mjs');
const subscriptionIdKey = 'io.modelcontextprotocol/subscriptionId';
const everythingUri = 'demo://resource/dynamic/text/1';

let directory: string;
let session: ProtocolEraSession;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-modern-listen-'));
  const configPath = join(directory, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        a: { command: process.execPath, args: [featureServer, '--name', 'a', '--resources', '2'] },
        everything: { command: process.execPath, args: [everythingEntry] },
        fresh: { command: process.execPath, args: [freshServer] },
      },
    }),
  );
  session = await connectProtocolEraClient(
    'sdk2-2026',
    {
      transport: 'stdio',
      command: process.execPath,
      args: [cli, '--config', configPath],
      env: { HOME: directory, SEARCH_MCP_WATCH: '0' },
    },
    { connectTimeoutMs: deadlineMs },
  );
  expect(session.era).toBe('modern');
  // Every backend answers before the tests run (bounded; each try is a plain request).
  await eventually(async () => {
    const calls = await Promise.all([
      call('a__subscriptions'),
      call('fresh__listening'),
      call('everything__echo', { message: 'up' }),
    ]);
    return calls.some((result) => result.isError) ? undefined : true;
  }, 'all three backends answer');
}, 90_000);

afterAll(async () => {
  await session?.close();
  await rm(directory, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return session.request('tools/call', { name, arguments: args });
}

async function textOf(pending: Promise<Record<string, unknown>>): Promise<string> {
  const result = await pending;
  const content = Array.isArray(result.content) ? (result.content as Array<{ text?: unknown }>) : [];
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

const updateOf = (uri: string) => (notification: { method: string; params: Record<string, unknown> }) =>
  notification.method === 'notifications/resources/updated' && notification.params.uri === uri;

describe('subscriptions/listen of a 2026-07-28 client over stdio', () => {
  it("relays the backends' resources/updated for the uris of the stream, and drops the subscriptions when it ends", async () => {
    const stream = await session.listen({
      resourcesListChanged: true,
      resourceSubscriptions: ['res://a/0', 'fresh://note', everythingUri, 'nowhere://at-all'],
    });
    let open = true;
    try {
      // No server serves `nowhere://at-all`: it is left out, never promised.
      expect(stream.honoredFilter).toEqual({
        resourcesListChanged: true,
        resourceSubscriptions: ['res://a/0', 'fresh://note', everythingUri],
      });
      // Subscribed at the backends, 2025 (`resources/subscribe`) and 2026 (its own listen stream), before the ack.
      expect(JSON.parse(await textOf(call('a__subscriptions')))).toEqual(['res://a/0']);
      expect(JSON.parse(await textOf(call('fresh__listening')))).toEqual(['fresh://note']);

      expect(await textOf(call('a__touch', { uri: 'res://a/0' }))).toBe('touched');
      const fromLegacy = await session.waitForNotification(updateOf('res://a/0'), deadlineMs);
      // It came on the stream: the notification names the subscription (2026 has no unsolicited notifications).
      expect(fromLegacy.params._meta).toHaveProperty(subscriptionIdKey);

      expect(await textOf(call('fresh__touch', { uri: 'fresh://note' }))).toBe('touched');
      await session.waitForNotification(updateOf('fresh://note'), deadlineMs);

      // server-everything sends an update for each subscribed uri at once, then every 5 s.
      await call('everything__toggle-subscriber-updates');
      await session.waitForNotification(updateOf(everythingUri), deadlineMs);

      // A list change of a server reaches the stream too (a new resource of server-everything).
      await call('everything__gzip-file-as-resource', {
        name: 'hello.txt.gz',
        data: 'data:text/plain,hi',
        outputType: 'resourceLink',
      });
      await session.waitForNotification(
        (notification) => notification.method === 'notifications/resources/list_changed',
        deadlineMs,
      );

      await stream.close();
      open = false;
      // The stream ended: the backends no longer hold the subscriptions.
      await eventually(
        async () => ((await textOf(call('a__subscriptions'))) === '[]' ? true : undefined),
        'a unsubscribed',
      );
      await eventually(
        async () => ((await textOf(call('fresh__listening'))) === '[]' ? true : undefined),
        'fresh unsubscribed',
      );
    } finally {
      if (open) await stream.close();
    }
  }, 120_000);

  it('promises nothing for a stream whose uris no server with subscriptions serves', async () => {
    const stream = await session.listen({ resourceSubscriptions: ['nowhere://at-all'] });
    try {
      expect(stream.honoredFilter).toEqual({});
    } finally {
      await stream.close();
    }
  });
});
