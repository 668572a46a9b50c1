import {
  InMemoryTransport,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  RELATED_TASK_META_KEY,
  Server,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { dispatchRequestsDirectly, isSpecJsonRpcRequest } from './direct-request-dispatch.js';

/** Messages at the edges of the SDK's request schema, and a few of every other kind. */
const messages: Array<[string, unknown]> = [
  ['a tools/call', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } }],
  ['a string id', { jsonrpc: '2.0', id: 'abc', method: 'ping' }],
  ['no params', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ['a progress token', { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 'p' } } }],
  ['a numeric progress token', { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 3 } } }],
  ['a 2026 envelope', { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { 'io.x/y': { z: 1 } } } }],
  [
    'a related task',
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } } },
  ],
  [
    'a related task with more keys',
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't', more: 1 } } } },
  ],
  [
    'a related task without its id',
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { [RELATED_TASK_META_KEY]: {} } } },
  ],
  ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'x' }],
  ['an unsafe integer id', { jsonrpc: '2.0', id: 2 ** 60, method: 'x' }],
  ['a null id', { jsonrpc: '2.0', id: null, method: 'x' }],
  ['a fractional progress token', { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 0.5 } } }],
  ['array params', { jsonrpc: '2.0', id: 1, method: 'x', params: [1, 2] }],
  ['null params', { jsonrpc: '2.0', id: 1, method: 'x', params: null }],
  ['string _meta', { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: 'm' } }],
  ['array _meta', { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: [] } }],
  ['an extra top-level key', { jsonrpc: '2.0', id: 1, method: 'x', extra: true }],
  ['a result beside the method', { jsonrpc: '2.0', id: 1, method: 'x', result: {} }],
  ['version 1.0', { jsonrpc: '1.0', id: 1, method: 'x' }],
  ['no version', { id: 1, method: 'x' }],
  ['a numeric method', { jsonrpc: '2.0', id: 1, method: 5 }],
  ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a result', { jsonrpc: '2.0', id: 1, result: { content: [] } }],
  ['an error', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } }],
  ['an array', [{ jsonrpc: '2.0', id: 1, method: 'x' }]],
  ['null', null],
  ['a string', 'tools/call'],
];

describe('isSpecJsonRpcRequest', () => {
  it.each(messages)('agrees with the SDK on %s: a request, and no response', (_name, message) => {
    const sdkRoutesToRequests =
      !isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message) && isJSONRPCRequest(message);
    expect(isSpecJsonRpcRequest(message)).toBe(sdkRoutesToRequests);
  });

  it('accepts the requests of the table and refuses the rest (the table covers both answers)', () => {
    const accepted = messages.filter(([, message]) => isSpecJsonRpcRequest(message)).length;
    expect(accepted).toBeGreaterThan(5);
    expect(accepted).toBeLessThan(messages.length - 10);
  });
});

describe('dispatchRequestsDirectly', () => {
  it("takes over the SDK's connection: requests are answered, and the transport's earlier handler hears every message", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const heardBefore: JSONRPCMessage[] = [];
    serverSide.onmessage = (message) => heardBefore.push(message);
    const server = new Server({ name: 'direct', version: '1' }, { capabilities: {} });
    const before = serverSide.onmessage;
    await server.connect(serverSide);
    // Fails if an SDK upgrade moves its request dispatch or stops installing its own handler on connect.
    expect(dispatchRequestsDirectly(server, serverSide, before)).toBe(true);

    const answers: JSONRPCMessage[] = [];
    const answered = new Promise<void>((resolve) => {
      clientSide.onmessage = (message) => {
        answers.push(message);
        if (answers.length === 2) resolve();
      };
    });
    await clientSide.start();
    const initialize = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    await clientSide.send(initialize);
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await clientSide.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await answered;

    expect(answers).toEqual([
      expect.objectContaining({
        id: 1,
        result: expect.objectContaining({ serverInfo: { name: 'direct', version: '1' } }),
      }),
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(heardBefore.map((message) => ('method' in message ? message.method : undefined))).toEqual([
      'initialize',
      'notifications/initialized',
      'ping',
    ]);
    await server.close();
  });

  it('leaves a transport the SDK has not connected as it is', () => {
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 'direct', version: '1' }, { capabilities: {} });
    expect(dispatchRequestsDirectly(server, serverSide, undefined)).toBe(false);
    expect(serverSide.onmessage).toBeUndefined();
  });
});
