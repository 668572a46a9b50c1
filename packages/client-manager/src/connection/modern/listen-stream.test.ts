import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { noSecrets, parseConfig, type ServerConfig, type McpTransport } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordingLogger, waitFor } from '../../../test/test-support.js';
import { subscribeResource, unsubscribeResource } from '../../features/resource-forwarding.js';
import type { ConnectionFactory } from '../connection-factory.js';
import { defaultLogRateLimit } from '../log-rate-limit.js';
import { loadModernClient } from './modern-client-loader.js';
import type { EmitManagerEvent } from '../notification-relays.js';
import { defaultRestartPolicy } from '../restart-policy.js';
import { ServerConnection } from '../server-connection.js';
import { ProtocolErrors } from '../protocol-errors.js';

/**
 * `subscriptions/listen` of a 2026-07-28 backend, over the 2.x SDK's own stdio entry (`serveStdio`, which routes a
 * pinned instance's change notifications onto listen streams) on an in-memory pipe: list changes and the updates of
 * subscribed resources reach the manager's events; subscribing and unsubscribing change the stream's filter; a
 * reconnect opens the stream again with the subscriptions held.
 */

interface Backend {
  factory: ConnectionFactory;
  /** The serving instance of the latest connection. */
  server: () => Server;
  /** Ends the latest connection from the server's side (a crash). */
  crash: () => Promise<void>;
  /** The filters of the `subscriptions/listen` requests the backend received, in order. */
  listens: Array<Record<string, unknown>>;
}

/** `maxSubscriptions`: how many listen streams the backend allows at once (the SDK's default is 1024). */
function modernBackend(maxSubscriptions?: number): Backend {
  let latest: Server | undefined;
  let handle: { close: () => Promise<void> } | undefined;
  const listens: Array<Record<string, unknown>> = [];
  const factory: ConnectionFactory = async ({ createClient, clientLoaded, timeoutMs, signal }) => {
    await clientLoaded;
    await loadModernClient();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    handle = serveStdio(
      () => {
        const server = new Server(
          { name: 'listening-fixture', version: '1.0.0' },
          {
            capabilities: {
              tools: { listChanged: true },
              prompts: { listChanged: true },
              resources: { subscribe: true, listChanged: true },
              logging: {},
            },
          },
        );
        server.setRequestHandler('tools/list', () => ({
          tools: [{ name: 'chatty', description: 'Logs twice, then answers.', inputSchema: { type: 'object' } }],
        }));
        // Messages within the request (the 2026 way): sent as they are, whatever level the envelope asked for.
        server.setRequestHandler('tools/call', async (_request, context) => {
          for (const data of ['first', 'second']) {
            await context.mcpReq.notify({
              method: 'notifications/message',
              params: { level: 'info', logger: 'listening-fixture', data },
            });
          }
          return { content: [{ type: 'text', text: 'done' }] };
        });
        latest = server;
        return server;
      },
      {
        legacy: 'reject',
        transport: spyOnListens(serverSide, listens),
        ...(maxSubscriptions !== undefined ? { maxSubscriptions } : {}),
      },
    );
    const client = createClient('modern');
    await client.connect(clientSide as unknown as McpTransport, { timeout: timeoutMs, signal });
    return { client, kind: 'stdio' };
  };
  return {
    factory,
    listens,
    server: () => {
      if (!latest) throw new Error('not connected');
      return latest;
    },
    crash: async () => {
      await handle?.close();
    },
  };
}

/** Records the filter of each `subscriptions/listen` request the server side receives. */
function spyOnListens(transport: InMemoryTransport, listens: Array<Record<string, unknown>>): InMemoryTransport {
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message && message.method === 'subscriptions/listen') {
        listens.push((message.params as { notifications: Record<string, unknown> }).notifications);
      }
      deliver?.(message, extra);
    };
  };
  return transport;
}

const connections: ServerConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.stop()));
});

function connect(backend: Backend) {
  const { logger } = createRecordingLogger();
  const parsed = parseConfig({ mcpServers: { memory: { command: 'in-memory', protocol: '2026-07-28' } } }).mcpServers
    .memory as ServerConfig;
  const events: Array<[string, ...unknown[]]> = [];
  const emit: EmitManagerEvent = (event, ...args) => void events.push([event, ...args]);
  const toolLists: number[] = [];
  const connection = new ServerConnection({
    config: parsed,
    logger,
    clientInfo: { name: 'test', version: '0' },
    errors: new ProtocolErrors(),
    restartPolicy: { ...defaultRestartPolicy, initialDelayMs: 20, maxDelayMs: 100 },
    openConnection: backend.factory,
    redactor: noSecrets,
    logRateLimit: defaultLogRateLimit,
    emit,
    onStatusChange: () => {},
    onToolsChanged: (_id, tools) => void toolLists.push(tools.length),
  });
  connections.push(connection);
  return { connection, events, toolLists };
}

const updatesOf = (events: Array<[string, ...unknown[]]>) =>
  events.filter(([event]) => event === 'resource-updated').map(([, , params]) => (params as { uri: string }).uri);

describe('subscriptions/listen of a 2026-07-28 backend', () => {
  it('relays list changes, and the updates of subscribed resources only', async () => {
    const backend = modernBackend();
    const { connection, events, toolLists } = connect(backend);
    await connection.start();
    await waitFor(() => backend.listens.length === 1, 'the listen stream');
    expect(backend.listens[0]).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });

    await backend.server().sendPromptListChanged();
    await backend.server().sendResourceListChanged();
    await waitFor(() => events.some(([event]) => event === 'resources-changed'), 'resources-changed');
    expect(events.filter(([event]) => event === 'prompts-changed').length).toBeGreaterThanOrEqual(1);
    const listsBefore = toolLists.length;
    await backend.server().sendToolListChanged();
    await waitFor(() => toolLists.length > listsBefore, 'the tool list refresh');

    await subscribeResource(connection, 'mem://a', undefined);
    expect(backend.listens.at(-1)).toMatchObject({ resourceSubscriptions: ['mem://a'] });
    await backend.server().sendResourceUpdated({ uri: 'mem://b' });
    await backend.server().sendResourceUpdated({ uri: 'mem://a' });
    await waitFor(() => updatesOf(events).length > 0, 'the update of mem://a');
    // One stream at a time delivers, in order: mem://b (not subscribed) was never sent.
    expect(updatesOf(events)).toEqual(['mem://a']);
    // The subscription id is our hop's: it does not travel on with the update.
    expect(events.find(([event]) => event === 'resource-updated')?.[2]).toEqual({ uri: 'mem://a' });

    await unsubscribeResource(connection, 'mem://a', undefined);
    expect(backend.listens.at(-1)).not.toHaveProperty('resourceSubscriptions');
    const changes = events.filter(([event]) => event === 'resources-changed').length;
    await backend.server().sendResourceUpdated({ uri: 'mem://a' });
    await backend.server().sendResourceListChanged();
    await waitFor(
      () => events.filter(([event]) => event === 'resources-changed').length > changes,
      'the next resources-changed',
    );
    expect(updatesOf(events)).toEqual(['mem://a']);
  });

  it('listens again after a reconnect, with the subscriptions held', async () => {
    const backend = modernBackend();
    const { connection, events } = connect(backend);
    await connection.start();
    await subscribeResource(connection, 'mem://kept', undefined);
    const first = backend.server();
    await backend.crash();
    await waitFor(() => connection.currentState === 'running' && backend.server() !== first, 'the reconnect', 20_000);
    await waitFor(
      () => backend.listens.at(-1)?.resourceSubscriptions !== undefined && backend.listens.length >= 3,
      'the listen stream of the new connection',
    );
    expect(backend.listens.at(-1)).toMatchObject({ resourceSubscriptions: ['mem://kept'] });
    await backend.server().sendResourceUpdated({ uri: 'mem://kept' });
    await waitFor(() => updatesOf(events).includes('mem://kept'), 'the update after the reconnect');
  }, 30_000);

  it('replaces the stream when the backend allows only one at a time', async () => {
    const backend = modernBackend(1);
    const { connection, events } = connect(backend);
    await connection.start();
    await waitFor(() => backend.listens.length === 1, 'the listen stream');
    await subscribeResource(connection, 'mem://one', undefined);
    expect(backend.listens.at(-1)).toMatchObject({ resourceSubscriptions: ['mem://one'] });
    await backend.server().sendResourceUpdated({ uri: 'mem://one' });
    await waitFor(() => updatesOf(events).includes('mem://one'), 'the update on the replacing stream');
  });

  it('fails a subscription with a clear error when the backend opens no stream, and keeps nothing of it', async () => {
    const backend = modernBackend(0);
    const { connection } = connect(backend);
    await connection.start();
    const failure = await subscribeResource(connection, 'mem://never', undefined).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(
      /^MCP server 'memory' could not update its subscriptions\/listen stream: .*Subscription limit reached/,
    );
    expect(connection.sessionState.subscribedUris).toEqual([]);
    // The connection itself stays up.
    expect(connection.currentState).toBe('running');
  });

  it('relays the log messages a 2026 backend sends within a request to log-message', async () => {
    const backend = modernBackend();
    const { connection, events } = connect(backend);
    await connection.start();
    expect((await connection.callTool('chatty', {})).content).toEqual([{ type: 'text', text: 'done' }]);
    await waitFor(() => events.filter(([event]) => event === 'log-message').length === 2, 'both log messages');
    expect(events.filter(([event]) => event === 'log-message')).toEqual([
      ['log-message', 'memory', { level: 'info', logger: 'listening-fixture', data: 'first' }],
      ['log-message', 'memory', { level: 'info', logger: 'listening-fixture', data: 'second' }],
    ]);
  });
});
