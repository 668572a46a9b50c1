import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createEraDetectingConnection, type ProtocolEra } from './era-detecting-connection.js';

/** A transport the test feeds: what the server sends is recorded, and each send wakes the waiters. */
class ScriptedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly sent: JSONRPCMessage[] = [];
  started = 0;
  closed = false;
  private waiters: Array<() => void> = [];

  async start(): Promise<void> {
    this.started += 1;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onclose?.();
  }

  receive(...messages: JSONRPCMessage[]): void {
    for (const message of messages) this.onmessage?.(message);
  }

  /** Resolves once the server answered request `id`. */
  async answerTo(id: number): Promise<JSONRPCMessage> {
    for (;;) {
      const answer = this.sent.find((message) => 'id' in message && message.id === id);
      if (answer) return answer;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

function factoryRecording(eras: ProtocolEra[]) {
  return ({ era }: { era: ProtocolEra }) => {
    eras.push(era);
    const server = new Server({ name: 'era-test', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    return server;
  };
}

const initialize = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

describe('createEraDetectingConnection', () => {
  it('serves a 2025 initialize directly, with the messages that came meanwhile answered in order', async () => {
    const eras: ProtocolEra[] = [];
    const transport = new ScriptedTransport();
    const connection = createEraDetectingConnection(factoryRecording(eras));
    await connection.connect(transport);
    expect(transport.started).toBe(1);
    // All three in one turn: the instance is made after the first, so the other two wait for it.
    transport.receive(
      initialize(1),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    );
    expect(await transport.answerTo(1)).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    expect(await transport.answerTo(2)).toMatchObject({ result: { tools: [] } });
    expect(eras).toEqual(['legacy']);
    expect(transport.sent.map((message) => ('id' in message ? message.id : undefined))).toEqual([1, 2]);
    await connection.close();
    expect(transport.closed).toBe(true);
  });

  it('leaves any other first message to the SDK entry: a 2026-07-28 request gets a 2026 instance', async () => {
    const eras: ProtocolEra[] = [];
    const transport = new ScriptedTransport();
    const connection = createEraDetectingConnection(factoryRecording(eras));
    await connection.connect(transport);
    transport.receive({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: {
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
          [CLIENT_INFO_META_KEY]: { name: 'modern', version: '1' },
          [CLIENT_CAPABILITIES_META_KEY]: {},
        },
      },
    });
    expect(await transport.answerTo(7)).toMatchObject({ result: { tools: [] } });
    expect(eras).toEqual(['modern']);
    await connection.close();
  });

  it('leaves an initialize that claims 2026-07-28 in its envelope to the entry, which does not serve it as 2025', async () => {
    const eras: ProtocolEra[] = [];
    const transport = new ScriptedTransport();
    const connection = createEraDetectingConnection(factoryRecording(eras));
    await connection.connect(transport);
    const claimed = initialize(3) as { params: Record<string, unknown> };
    claimed.params._meta = {
      [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
      [CLIENT_INFO_META_KEY]: { name: 'modern', version: '1' },
      [CLIENT_CAPABILITIES_META_KEY]: {},
    };
    transport.receive(claimed as unknown as JSONRPCMessage);
    // 2026-07-28 has no initialize: the 2026 instance the entry made refuses it.
    expect(await transport.answerTo(3)).toHaveProperty('error');
    expect(eras).toEqual(['modern']);
    await connection.close();
  });

  it('closes the transport when closed before any message, and refuses a second connect', async () => {
    const transport = new ScriptedTransport();
    const connection = createEraDetectingConnection(factoryRecording([]));
    await connection.connect(transport);
    await expect(connection.connect(new ScriptedTransport())).rejects.toThrow('already connected');
    await connection.close();
    expect(transport.closed).toBe(true);
  });
});
