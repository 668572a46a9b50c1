import { PassThrough } from 'node:stream';
import { readFileSync } from 'node:fs';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { StdioJsonRpcServerTransport } from './stdio-json-rpc-server-transport.js';

/** A transport over in-memory streams; what it writes is kept as text lines and as parsed messages. */
async function open(options: { maxLineLength?: number } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  let pending = '';
  output.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  const diagnostics: string[] = [];
  const transport = new StdioJsonRpcServerTransport({
    input,
    output,
    onDiagnostic: (message) => diagnostics.push(message),
    ...options,
  });
  const received: JSONRPCMessage[] = [];
  let closed = false;
  transport.onmessage = (message) => received.push(message);
  transport.onclose = () => {
    closed = true;
  };
  await transport.start();
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const send = async (...texts: string[]) => {
    input.write(texts.map((text) => `${text}\n`).join(''));
    await tick();
  };
  return {
    transport,
    input,
    output,
    lines,
    written: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    received,
    diagnostics,
    send,
    tick,
    closed: () => closed,
  };
}

describe('StdioJsonRpcServerTransport', () => {
  it('delivers messages, split across chunks or packed into one', async () => {
    const { input, received, send, tick } = await open();
    await send('{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    input.write('{"jsonrpc":"2.0","id":2,');
    input.write('"method":"tools/list"}\r\n');
    await tick();
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
  });

  it('keeps a multi-byte character that is split between two chunks', async () => {
    const { input, received, tick } = await open();
    const bytes = Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"検索"}}\n', 'utf8');
    // Inside 検 (three bytes: e6 a4 9c): the first chunk ends after its first byte.
    const cut = bytes.indexOf(0xe6) + 1;
    input.write(bytes.subarray(0, cut));
    await tick();
    input.write(bytes.subarray(cut));
    await tick();
    expect(received).toEqual([{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: '検索' } }]);
  });

  it('answers what is not a request with -32700/-32600 (id as sent, else null), and goes on', async () => {
    const { written, received, diagnostics, send } = await open();
    await send(
      'this is not json',
      '{"jsonrpc":"2.0","id":7,"method":42}',
      '[1,2]',
      '{"jsonrpc":"2.0","id":"s","method":"ping","params":"x"}',
      '{"jsonrpc":"2.0","id":9,"method":"tools/list","params":[1]}',
      '{"jsonrpc":"1.0","id":10,"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":8,"method":"ping"}',
    );
    expect(written()).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } },
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: "method" must be a string' } },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(/^Invalid Request: batches/) },
      },
      { jsonrpc: '2.0', id: 's', error: { code: -32600, message: 'Invalid Request: "params" must be an object' } },
      { jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'Invalid Request: "params" must be an object' } },
      { jsonrpc: '2.0', id: 10, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: "id" must be a string or a number' },
      },
    ]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
    expect(diagnostics).toHaveLength(7);
  });

  it('answers a request whose _meta is not valid with -32602', async () => {
    const { written, send } = await open();
    await send(
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":5}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":{}}}}',
    );
    expect(written()).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: 'Invalid tools/list params: _meta: must be an object' },
      },
      {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32602,
          message: 'Invalid tools/call params: _meta.progressToken: must be a string or a number',
        },
      },
    ]);
  });

  it('never answers a notification, even a malformed one', async () => {
    const { lines, received, diagnostics, send } = await open();
    await send(
      '{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"_meta":1}}',
      '   ',
      '',
    );
    expect(lines).toEqual([]);
    expect(received).toEqual([]);
    expect(diagnostics).toEqual([
      'ignored notification notifications/initialized: "params" must be an object',
      'ignored notification notifications/cancelled: _meta: must be an object',
    ]);
  });

  it('passes ids the SDK takes unchanged, maps the others and echoes them exactly as sent', async () => {
    const { transport, lines, received, send } = await open();
    const ids = ['7', '"abc"', '1.5', '1e300', '-0', '1.0', '12345678901234567890', '"\\u0041"', '-3'];
    await send(...ids.map((id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`));
    const internal = received.map((message) => (message as { id: string | number }).id);
    expect(internal.slice(0, 2)).toEqual([7, 'abc']);
    expect(internal.at(-1)).toBe(-3);
    for (const id of internal.slice(2, -1)) expect(typeof id === 'string' && !ids.includes(`"${id}"`)).toBe(true);
    for (const id of internal) await transport.send({ jsonrpc: '2.0', id, result: {} });
    expect(lines).toEqual(ids.map((id) => `{"jsonrpc":"2.0","id":${id},"result":{}}`));
  });

  it('routes a cancellation of a mapped id to its request', async () => {
    const { received, send } = await open();
    await send(
      '{"jsonrpc":"2.0","id":2.5,"method":"tools/call","params":{"name":"slow"}}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2.5,"reason":"enough"}}',
    );
    const internal = (received[0] as { id: string }).id;
    expect(received[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: internal, reason: 'enough' },
    });
  });

  it('maps a progress token the SDK would refuse, and sends progress back under the client token', async () => {
    const { transport, written, received, send } = await open();
    await send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":0.5}}}');
    const token = (received[0] as { params: { _meta: { progressToken: unknown } } }).params._meta.progressToken;
    expect(typeof token).toBe('string');
    await transport.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token as string, progress: 1 },
    });
    await transport.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    expect(written()).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0.5, progress: 1 } },
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
    ]);
  });

  it('fails our own request at once when the client answers it with a malformed response', async () => {
    const { transport, lines, received, diagnostics, send } = await open();
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'roots/list' });
    await send('{"jsonrpc":"2.0","id":0,"result":null}', '{"jsonrpc":"2.0","id":99,"result":null}');
    expect(received).toEqual([
      {
        jsonrpc: '2.0',
        id: 0,
        error: { code: -32603, message: 'The client sent a malformed response: "result" must be an object' },
      },
    ]);
    // Responses are never answered, well-formed or not.
    expect(lines).toEqual(['{"jsonrpc":"2.0","id":0,"method":"roots/list"}']);
    expect(diagnostics).toHaveLength(2);
  });

  it('answers an over-long line with a parse error and reads the next line', async () => {
    const { input, written, received, send, tick } = await open({ maxLineLength: 100 });
    // The line arrives in pieces, as a large one does from a pipe: it is dropped once it passes the limit.
    input.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(80)}`);
    await tick();
    input.write(`${'x'.repeat(80)}"}}`);
    await tick();
    await send('', '{"jsonrpc":"2.0","id":2,"method":"ping"}');
    expect(written()).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error: message longer than 100 characters/) },
      },
    ]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('sends one line per message and closes when its input ends', async () => {
    const { transport, input, closed, tick } = await open();
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    input.end();
    await tick();
    expect(closed()).toBe(true);
    await expect(transport.send({ jsonrpc: '2.0', id: 2, result: {} })).rejects.toThrow('Not connected');
  });

  it('closes when its output fails (the client closed our stdout)', async () => {
    const { transport, output, closed } = await open();
    const errors: string[] = [];
    transport.onerror = (error) => errors.push(error.message);
    output.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await new Promise((resolve) => output.once('close', resolve));
    expect(errors).toEqual(['write EPIPE']);
    expect(closed()).toBe(true);
  });

  it('delivers only messages the SDK accepts, for every line of the fuzz corpus', async () => {
    const corpus = JSON.parse(
      readFileSync(new URL('../../test/json-rpc-fuzz-corpus.json', import.meta.url), 'utf8'),
    ) as Array<{ line: string }>;
    const { received, send } = await open();
    for (const entry of corpus) await send(entry.line);
    expect(received.length).toBeGreaterThan(50);
    const refused = received.filter(
      (message) =>
        !isJSONRPCRequest(message) &&
        !isJSONRPCNotification(message) &&
        !isJSONRPCResultResponse(message) &&
        !isJSONRPCErrorResponse(message),
    );
    // The SDK drops what it does not accept without a word; the transport must have answered those itself.
    expect(refused).toEqual([]);
  });
});
