import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioJsonRpcServerTransport } from './stdio-json-rpc-server-transport.js';

async function run(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: unknown[] = [];
  output.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) written.push(JSON.parse(line));
  });
  const transport = new StdioJsonRpcServerTransport(input, output);
  const received: unknown[] = [];
  const errors: string[] = [];
  let closed = false;
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error.message);
  transport.onclose = () => {
    closed = true;
  };
  await transport.start();
  input.write(lines.join('\n') + '\n');
  await new Promise((resolve) => setImmediate(resolve));
  return { transport, input, written, received, errors, closed: () => closed };
}

describe('StdioJsonRpcServerTransport', () => {
  it('delivers messages, split across chunks or packed into one', async () => {
    const { input, received } = await run([
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ]);
    input.write('{"jsonrpc":"2.0","id":2,');
    input.write('"method":"tools/list"}\r\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
  });

  it('keeps a multi-byte character that is split between two chunks', async () => {
    const { input, received } = await run([]);
    const bytes = Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"検索"}}\n', 'utf8');
    // Inside 検 (three bytes: e6 a4 9c): the first chunk ends after its first byte.
    const cut = bytes.indexOf(0xe6) + 1;
    input.write(bytes.subarray(0, cut));
    await new Promise((resolve) => setImmediate(resolve));
    input.write(bytes.subarray(cut));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: '検索' } }]);
  });

  it('answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600, and goes on', async () => {
    const { written, received, errors } = await run([
      'this is not json',
      '{"jsonrpc":"2.0","id":7,"method":42}',
      '[1,2]',
      '{"jsonrpc":"2.0","id":8,"method":"ping"}',
    ]);
    expect(written).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } },
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
    ]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
    expect(errors).toHaveLength(3);
  });

  it('sends one line per message and closes when its input ends', async () => {
    const { transport, input, closed } = await run([]);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed()).toBe(true);
    await expect(transport.send({ jsonrpc: '2.0', id: 2, result: {} })).rejects.toThrow('Not connected');
  });
});
