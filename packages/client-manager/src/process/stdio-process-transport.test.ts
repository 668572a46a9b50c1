import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/test-support.js';
import { StdioProcessTransport } from './stdio-process-transport.js';

// Writes one JSON-RPC response in two writes, 100 ms apart, cut inside the three bytes of 検 (e6 a4 9c).
const splitWriter = `
const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: '検索ツール' } }) + '\\n', 'utf8');
const cut = bytes.indexOf(0xe6) + 1;
process.stdout.write(bytes.subarray(0, cut));
setTimeout(() => process.stdout.write(bytes.subarray(cut)), 100);
setTimeout(() => {}, 10000);
`;

const transports: StdioProcessTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close({ immediate: true })));
});

function environment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

describe('StdioProcessTransport', () => {
  it('keeps a multi-byte character that the server wrote in two reads', async () => {
    const garbage: string[] = [];
    const transport = new StdioProcessTransport({
      command: process.execPath,
      args: ['-e', splitWriter],
      env: environment(),
      closeGraceMs: 500,
      onGarbageLine: (line) => garbage.push(line),
    });
    transports.push(transport);
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await waitFor(() => received.length > 0, 'the response');
    expect(received).toEqual([{ jsonrpc: '2.0', id: 1, result: { text: '検索ツール' } }]);
    expect(garbage).toEqual([]);
  });
});
