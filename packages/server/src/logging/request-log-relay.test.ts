import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';
import { ToolCatalog } from '@search-mcp/catalog';
import { McpClientManager } from '@search-mcp/client-manager';
import { type LoggingLevel, parseConfig, silentLogger } from '@search-mcp/shared';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSearchMcpServer } from '../create-search-mcp-server.js';
import { ForwardingHub } from '../forwarding-hub.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientSession } from '../sessions/client-session.js';
import { ClientSessions } from '../sessions/client-sessions.js';
import { sessionCallInFlight } from './request-log-relay.js';
import { connectThroughEntry } from '../../test/stdio-entry-link.js';
import { legacyClientEra } from '../eras/legacy-client-era.js';

// Backend log messages to 2026-07-28 clients (issue 10): only inside the client's own requests to the server that
// are in flight, only when the request carried `_meta["io.modelcontextprotocol/logLevel"]` (spec MUST), at that level
// or above. Real parts: a 2025 backend (`old`, the feature fixture: `log {level, message}`, `slow {ms}`), a
// 2026-07-28 backend (`new`, the modern fixture: `log {message}` at info, `slow {steps}`), the real client manager,
// and the 2.x SDK client as the front (pinned 2026-07-28, or legacy for the 2025 side).

let manager: McpClientManager;
let catalog: ToolCatalog;
let hub: ForwardingHub;
const closers: Array<() => Promise<void>> = [];
/** Every log message the manager relayed, by server: proof that a backend did log during a call. */
const relayed: Array<{ serverId: string; data: unknown }> = [];

beforeAll(async () => {
  const config = parseConfig({
    mcpServers: {
      old: { command: process.execPath, args: [fixtureServerPath('feature-server.mjs'), '--name', 'old'] },
      new: { command: process.execPath, args: [fixtureServerPath('modern-server.mjs')], protocol: '2026-07-28' },
    },
  });
  const sessions = new ClientSessions({ logger: silentLogger });
  manager = new McpClientManager(config, { reverseRequests: sessions, logger: silentLogger });
  manager.on('log-message', (serverId, params) => relayed.push({ serverId, data: params.data }));
  catalog = new ToolCatalog({ sources: [manager], config, executor: { retries: 0 } });
  hub = new ForwardingHub({ gateway: manager, catalog, sessions, logger: silentLogger });
  const started = await manager.startAll();
  expect(started.map((status) => [status.id, status.state])).toEqual([
    ['old', 'running'],
    ['new', 'running'],
  ]);
}, 60_000);

afterAll(async () => {
  hub.close();
  await manager.close();
});

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
  _meta?: Record<string, unknown>;
}

/** A 2.x client over a stdio-style entry (one server instance per connection), collecting its log messages. */
async function front(era: 'modern' | 'legacy', mode: 'proxy' | 'meta' = 'proxy') {
  const client = new Client(
    { name: `log-${era}`, version: '1' },
    { capabilities: {}, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  const messages: LogMessage[] = [];
  client.setNotificationHandler('notifications/message', (notification) => {
    messages.push(notification.params as LogMessage);
  });
  closers.push(
    await connectThroughEntry(client, (context) =>
      createSearchMcpServer({ catalog, manager, hub, mode, era: context.era }),
    ),
  );
  return { client, messages };
}

const Loose = z.looseObject({});
const levelMeta = (level: LoggingLevel | undefined) => (level ? { [LOG_LEVEL_META_KEY]: level } : {});

/** A `tools/call`, with the request's log level when given. */
function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  level?: LoggingLevel,
  options: { signal?: AbortSignal; onprogress?: () => void } = {},
) {
  return client.request({ method: 'tools/call', params: { name, arguments: args, _meta: levelMeta(level) } }, Loose, {
    timeout: 30_000,
    ...options,
  }) as Promise<Record<string, unknown>>;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text?: string }> | undefined)?.map((block) => block.text).join('') ?? '';

/** A call that stays in flight (progress came: the backend runs it) until `stop()`. */
async function inFlight(client: Client, name: string, args: Record<string, unknown>, level?: LoggingLevel) {
  const controller = new AbortController();
  let running: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    running = resolve;
  });
  const settled = call(client, name, args, level, { signal: controller.signal, onprogress: () => running() }).catch(
    () => undefined,
  );
  await started;
  return {
    stop: async () => {
      controller.abort();
      await settled;
    },
  };
}

/** A round trip on the client's connection: whatever the server sent it before has arrived (ordered transport). */
const roundTrip = (client: Client) => client.request({ method: 'tools/list', params: {} }, Loose);

describe('a 2026-07-28 client hears backend log messages inside its requests', () => {
  it('from a 2025 backend: at the level the request asked for or above, the server id as logger', async () => {
    const { client, messages } = await front('modern');
    expect(textOf(await call(client, 'old__log', { level: 'error', message: 'disk full' }, 'warning'))).toBe('logged');
    expect(messages).toEqual([
      { level: 'error', logger: 'old', data: 'disk full', _meta: { 'search-mcp/logger': 'old' } },
    ]);
    // Below the request's level: the backend logged it (the manager relayed it), the request does not get it.
    expect(textOf(await call(client, 'old__log', { level: 'info', message: 'chatter' }, 'warning'))).toBe('logged');
    expect(relayed).toContainEqual({ serverId: 'old', data: 'chatter' });
    expect(messages.map((message) => message.data)).toEqual(['disk full']);
  });

  it('from a 2026-07-28 backend, through tool_execute too', async () => {
    const { client, messages } = await front('modern', 'meta');
    const result = await call(
      client,
      'tool_execute',
      { toolKey: 'new__log', arguments: { message: 'from the new one' } },
      'info',
    );
    expect(textOf(result)).toBe('logged');
    expect(messages).toEqual([
      { level: 'info', logger: 'new', data: 'from the new one', _meta: { 'search-mcp/logger': 'modern-fixture' } },
    ]);
  });

  it('never inside a request without a log level (spec MUST), though the backend logged', async () => {
    const { client, messages } = await front('modern');
    expect(textOf(await call(client, 'old__log', { level: 'error', message: 'unasked old' }))).toBe('logged');
    expect(textOf(await call(client, 'new__log', { message: 'unasked new' }))).toBe('logged');
    expect(relayed).toEqual(
      expect.arrayContaining([
        { serverId: 'old', data: 'unasked old' },
        { serverId: 'new', data: 'unasked new' },
      ]),
    );
    expect(messages).toEqual([]);
  });

  it('never unsolicited: an idle 2026-07-28 connection hears nothing while a 2025 session gets its messages', async () => {
    const modern = await front('modern');
    const legacy = await front('legacy');
    expect(textOf(await call(legacy.client, 'old__log', { level: 'error', message: 'for 2025 sessions' }))).toBe(
      'logged',
    );
    expect(legacy.messages.map((message) => [message.logger, message.data])).toEqual([['old', 'for 2025 sessions']]);
    await roundTrip(modern.client);
    expect(modern.messages).toEqual([]);
  });

  it("each request in flight to that server that asked hears it; other servers' requests and unasked ones do not", {
    timeout: 60_000,
  }, async () => {
    const caller = await front('modern');
    const sameServer = await front('modern');
    const unasked = await front('modern');
    const otherServer = await front('modern');
    const calls = [
      await inFlight(sameServer.client, 'old__slow', { ms: 30_000 }, 'debug'),
      await inFlight(unasked.client, 'old__slow', { ms: 30_000 }),
      await inFlight(otherServer.client, 'new__slow', { steps: 1_500 }, 'debug'),
    ];
    expect(textOf(await call(caller.client, 'old__log', { level: 'notice', message: 'shared' }, 'info'))).toBe(
      'logged',
    );
    await Promise.all([sameServer, unasked, otherServer].map(({ client }) => roundTrip(client)));
    await Promise.all(calls.map((running) => running.stop()));
    expect(caller.messages.map((message) => message.data)).toEqual(['shared']);
    expect(sameServer.messages.map((message) => message.data)).toEqual(['shared']);
    expect(unasked.messages).toEqual([]);
    expect(otherServer.messages).toEqual([]);
  });
});

describe('Streamable HTTP: one server instance per 2026-07-28 request', () => {
  it('the message goes on the response stream of the request that asked', async () => {
    const handler = createMcpHandler((context) =>
      createSearchMcpServer({ catalog, manager, hub, mode: 'proxy', era: context.era }),
    );
    // The real handler and client; the socket is left out (the app's tests cover it through its binary).
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    });
    const client = new Client(
      { name: 'log-http', version: '1' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const messages: LogMessage[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params as LogMessage);
    });
    await client.connect(transport);
    closers.push(() => client.close());
    expect(textOf(await call(client, 'new__log', { message: 'over http' }, 'debug'))).toBe('logged');
    expect(textOf(await call(client, 'old__log', { level: 'info', message: 'not asked' }))).toBe('logged');
    expect(messages.map((message) => [message.level, message.logger, message.data])).toEqual([
      ['info', 'new', 'over http'],
    ]);
  });
});

describe('sessionCallInFlight: the stream a 2025 session hears a log message on', () => {
  const session = (key: string) => ({ key }) as unknown as ClientSession;
  const extra = (aborted = false) => {
    const controller = new AbortController();
    if (aborted) controller.abort();
    return { signal: controller.signal, era: 'legacy', clientEra: legacyClientEra } as unknown as RequestExtra;
  };

  it("the session's newest call in flight that has not ended; none: the session's own stream", () => {
    const [ann, bob, cid] = [session('ann'), session('bob'), session('cid')];
    const [annEnded, annNewest, annOlder, bobs] = [extra(true), extra(), extra(), extra()];
    // Newest first, as the gateway lists them; a value that is no origin of ours is skipped.
    const origins = [
      { session: ann, extra: annEnded },
      {},
      { session: bob, extra: bobs },
      { session: ann, extra: annNewest },
      { session: ann, extra: annOlder },
    ];
    expect(sessionCallInFlight(ann, origins)).toBe(annNewest);
    expect(sessionCallInFlight(bob, origins)).toBe(bobs);
    expect(sessionCallInFlight(cid, origins)).toBeUndefined();
    expect(sessionCallInFlight(ann, [{ session: ann, extra: annEnded }])).toBeUndefined();
  });
});
