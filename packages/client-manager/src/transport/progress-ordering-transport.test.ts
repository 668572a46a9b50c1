import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ProgressOrderingTransport } from './progress-ordering-transport.js';

/**
 * A server end that answers from inside `send`, delivering a progress notification and the response in the same
 * tick, as a stdio chunk holding both lines does.
 */
class SameTickServerTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return;
    const request = message as JSONRPCRequest;
    if (request.method === 'initialize') {
      this.onmessage?.({
        jsonrpc: '2.0',
        id: request.id,
        result: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: { tools: {} },
          serverInfo: { name: 'same-tick', version: '1' },
        },
      });
      return;
    }
    const token = (request.params?._meta as { progressToken?: string | number } | undefined)?.progressToken;
    if (token !== undefined) {
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 1 },
      });
    }
    this.onmessage?.({ jsonrpc: '2.0', id: request.id, result: { content: [] } });
  }
}

async function progressSeen(wrap: boolean): Promise<number[]> {
  const inner = new SameTickServerTransport();
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(wrap ? new ProgressOrderingTransport(inner) : inner);
  const seen: number[] = [];
  await client.request({ method: 'tools/call', params: { name: 'x', arguments: {} } }, z.looseObject({}), {
    onprogress: (progress) => seen.push(progress.progress),
  });
  await client.close();
  return seen;
}

describe('ProgressOrderingTransport', () => {
  it('delivers a final progress notification that arrives in the same tick as the response', async () => {
    expect(await progressSeen(true)).toEqual([1]);
  });

  it('is needed: without it the SDK drops that notification', async () => {
    expect(await progressSeen(false)).toEqual([]);
  });
});
