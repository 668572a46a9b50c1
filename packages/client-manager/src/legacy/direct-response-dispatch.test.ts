import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { dispatchResponsesDirectly, isSpecJsonRpcResultResponse } from './direct-response-dispatch.js';

/** Messages at the edges of the SDK's result-response schema, and a few of every other kind. */
const messages: Array<[string, unknown]> = [
  ['a tools/call result', { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'hi' }] } }],
  ['a string id', { jsonrpc: '2.0', id: 'abc', result: {} }],
  ['an empty result', { jsonrpc: '2.0', id: 0, result: {} }],
  ['a progress token', { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: 'p' } } }],
  ['a numeric progress token', { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: 3 } } }],
  ['other _meta keys', { jsonrpc: '2.0', id: 1, result: { _meta: { 'io.x/y': { z: 1 } } } }],
  ['a related task', { jsonrpc: '2.0', id: 1, result: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } } }],
  [
    'a related task with more keys',
    { jsonrpc: '2.0', id: 1, result: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't', more: 1 } } } },
  ],
  ['a related task without its id', { jsonrpc: '2.0', id: 1, result: { _meta: { [RELATED_TASK_META_KEY]: {} } } }],
  ['a task result', { jsonrpc: '2.0', id: 1, result: { task: { taskId: 't', status: 'working' } } }],
  ['a fractional id', { jsonrpc: '2.0', id: 1.5, result: {} }],
  ['an unsafe integer id', { jsonrpc: '2.0', id: 2 ** 60, result: {} }],
  ['a null id', { jsonrpc: '2.0', id: null, result: {} }],
  ['no id', { jsonrpc: '2.0', result: {} }],
  ['a fractional progress token', { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: 0.5 } } }],
  ['a null progress token', { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: null } } }],
  ['an array result', { jsonrpc: '2.0', id: 1, result: [1, 2] }],
  ['a null result', { jsonrpc: '2.0', id: 1, result: null }],
  ['a string result', { jsonrpc: '2.0', id: 1, result: 'ok' }],
  ['string _meta', { jsonrpc: '2.0', id: 1, result: { _meta: 'm' } }],
  ['array _meta', { jsonrpc: '2.0', id: 1, result: { _meta: [] } }],
  ['an extra top-level key', { jsonrpc: '2.0', id: 1, result: {}, extra: true }],
  ['an error beside the result', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }],
  ['version 1.0', { jsonrpc: '1.0', id: 1, result: {} }],
  ['no version', { id: 1, result: {} }],
  ['an error', { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } }],
  ['a request', { jsonrpc: '2.0', id: 1, method: 'ping' }],
  ['a notification', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }],
  ['an array', [{ jsonrpc: '2.0', id: 1, result: {} }]],
  ['null', null],
  ['a string', 'result'],
];

describe('isSpecJsonRpcResultResponse', () => {
  it.each(messages)('agrees with the SDK on %s', (_name, message) => {
    expect(isSpecJsonRpcResultResponse(message)).toBe(isJSONRPCResultResponse(message));
  });

  it('accepts the results of the table and refuses the rest (the table covers both answers)', () => {
    const accepted = messages.filter(([, message]) => isSpecJsonRpcResultResponse(message)).length;
    expect(accepted).toBeGreaterThan(5);
    expect(accepted).toBeLessThan(messages.length - 10);
  });
});

describe('dispatchResponsesDirectly', () => {
  it("takes over the SDK client's connection: results and errors settle their calls, progress still arrives, and the transport's earlier handler hears every message", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 'direct', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      if (request.params.name === 'fail') throw new Error('it failed');
      const token = request.params._meta?.progressToken;
      if (token !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1 },
        });
      return { content: [{ type: 'text', text: String(request.params.arguments?.text) }], extraField: 1 };
    });
    await server.connect(serverSide);
    const heardBefore: JSONRPCMessage[] = [];
    clientSide.onmessage = (message) => heardBefore.push(message);
    const before = clientSide.onmessage;
    const client = new Client({ name: 'direct', version: '1' });
    await client.connect(clientSide);
    // Fails if an SDK upgrade moves its response dispatch or stops installing its own handler on connect.
    expect(dispatchResponsesDirectly(client, clientSide, before)).toBe(true);
    heardBefore.length = 0;

    const progress: number[] = [];
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hi' } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(echoed).toEqual({ content: [{ type: 'text', text: 'hi' }], extraField: 1 });
    expect(progress).toEqual([1]);
    // An error response takes the SDK's path, as before.
    await expect(client.callTool({ name: 'fail', arguments: {} })).rejects.toThrow('it failed');
    await expect(client.request({ method: 'no/such' } as never, CallToolRequestSchema)).rejects.toThrow(
      'Method not found',
    );
    expect(heardBefore.map((message) => ('method' in message ? message.method : 'response'))).toEqual([
      'notifications/progress',
      'response',
      'response',
      'response',
    ]);
    await client.close();
    await server.close();
  });

  it('leaves a transport the SDK has not connected as it is', () => {
    const [clientSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'direct', version: '1' });
    expect(dispatchResponsesDirectly(client, clientSide, undefined)).toBe(false);
    expect(clientSide.onmessage).toBeUndefined();
  });
});
