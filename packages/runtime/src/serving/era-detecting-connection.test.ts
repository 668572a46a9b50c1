import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  createEraDetectingConnection,
  type EraDetectingConnectionOptions,
  type ProtocolEra,
} from './era-detecting-connection.js';

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

const envelope = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  [CLIENT_INFO_META_KEY]: { name: 'modern', version: '1' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};

/** A connection over a scripted transport, connected, with the eras of the instances it made. */
async function connected(options: EraDetectingConnectionOptions = {}) {
  const eras: ProtocolEra[] = [];
  const transport = new ScriptedTransport();
  const connection = createEraDetectingConnection(factoryRecording(eras), options);
  await connection.connect(transport);
  return { eras, transport, connection };
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
    const { eras, transport, connection } = await connected();
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
    const { eras, transport, connection } = await connected();
    transport.receive({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope } });
    expect(await transport.answerTo(7)).toMatchObject({ result: { tools: [] } });
    expect(eras).toEqual(['modern']);
    await connection.close();
  });

  it('leaves an initialize that claims 2026-07-28 in its envelope to the entry, which does not serve it as 2025', async () => {
    const { eras, transport, connection } = await connected();
    const claimed = initialize(3) as { params: Record<string, unknown> };
    claimed.params._meta = envelope;
    transport.receive(claimed as unknown as JSONRPCMessage);
    // 2026-07-28 has no initialize: the 2026 instance the entry made refuses it.
    expect(await transport.answerTo(3)).toHaveProperty('error');
    expect(eras).toEqual(['modern']);
    await connection.close();
  });

  describe('after an enveloped server/discover (the SDK entry leaves the era open for a fallback initialize)', () => {
    const discover = (id: number): JSONRPCMessage => ({
      jsonrpc: '2.0',
      id,
      method: 'server/discover',
      params: { _meta: envelope },
    });
    const modernList = (id: number): JSONRPCMessage => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/list',
      params: { _meta: envelope },
    });

    it('refuses a request without the envelope -32602 and stays 2026-07-28 (one instance, modern answers)', async () => {
      const { eras, transport, connection } = await connected();
      transport.receive(discover(1));
      expect(await transport.answerTo(1)).toMatchObject({ result: { supportedVersions: ['2026-07-28'] } });
      transport.receive({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: {} });
      expect(await transport.answerTo(2)).toMatchObject({
        error: { code: -32602, message: expect.stringContaining('missing the required _meta envelope') },
      });
      transport.receive(modernList(3));
      expect(await transport.answerTo(3)).toMatchObject({ result: { tools: [], resultType: 'complete' } });
      // Once pinned, the 2026 instance itself refuses the same request the same way.
      transport.receive({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
      expect(await transport.answerTo(4)).toMatchObject({
        error: { code: -32602, message: expect.stringContaining('missing the required _meta envelope') },
      });
      expect(eras).toEqual(['modern']);
      await connection.close();
    });

    it('keeps that rule for messages that all come in one turn, and drops a claim-less notification (reported)', async () => {
      const errors: string[] = [];
      const { eras, transport, connection } = await connected({ onerror: (error) => errors.push(error.message) });
      transport.receive(
        discover(1),
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        modernList(3),
      );
      expect(await transport.answerTo(2)).toMatchObject({ error: { code: -32602 } });
      expect(await transport.answerTo(3)).toMatchObject({ result: { resultType: 'complete' } });
      expect(await transport.answerTo(1)).toMatchObject({ result: { supportedVersions: ['2026-07-28'] } });
      expect(eras).toEqual(['modern']);
      expect(errors).toEqual([expect.stringContaining('Dropped notifications/roots/list_changed')]);
      await connection.close();
    });

    it('still falls back to 2025 on a claim-less initialize, the fallback the probe is for', async () => {
      const { eras, transport, connection } = await connected();
      transport.receive(discover(1));
      expect(await transport.answerTo(1)).toHaveProperty('result');
      transport.receive(initialize(2));
      expect(await transport.answerTo(2)).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
      transport.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
      transport.receive(modernList(3));
      const listed = await transport.answerTo(3);
      expect(listed).toMatchObject({ result: { tools: [] } });
      expect(listed).not.toHaveProperty('result.resultType');
      expect(eras).toEqual(['modern', 'legacy']);
      await connection.close();
    });

    it('still falls back to 2025 on initialize after a request naming a revision the entry does not serve', async () => {
      const { eras, transport, connection } = await connected();
      transport.receive(discover(1));
      expect(await transport.answerTo(1)).toHaveProperty('result');
      const unsupported = { ...envelope, [PROTOCOL_VERSION_META_KEY]: '2099-01-01' };
      transport.receive({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: unsupported } });
      expect(await transport.answerTo(2)).toHaveProperty('error');
      transport.receive(initialize(3));
      expect(await transport.answerTo(3)).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
      expect(eras).toEqual(['modern', 'legacy']);
      await connection.close();
    });

    it('leaves a discover with a malformed envelope to the entry: refused, and no probe is opened', async () => {
      const { eras, transport, connection } = await connected();
      transport.receive({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } },
      });
      expect(await transport.answerTo(1)).toMatchObject({ error: { code: -32602 } });
      // Nothing was opened: the SDK's opening rule applies to what comes next (a claim-less request is 2025).
      transport.receive({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      const listed = await transport.answerTo(2);
      expect(listed).toMatchObject({ result: { tools: [] } });
      expect(listed).not.toHaveProperty('result.resultType');
      expect(eras).toEqual(['legacy']);
      await connection.close();
    });
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
