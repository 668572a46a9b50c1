import type { JsonRpcMessage } from '@search-mcp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/test-support.js';
import { StdioProcessTransport, type StdioProcessTransportOptions } from './stdio-process-transport.js';
import { processWatchdog } from './process-watchdog.js';
import { defaultWatchdogScript } from './watchdog-script.js';

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

const watchdogScript = defaultWatchdogScript();
if (watchdogScript === undefined) throw new Error('src/process/watchdog.cjs is missing');
const watched: Partial<StdioProcessTransportOptions> = { watchdog: processWatchdog(watchdogScript) };

describe.each([
  ['watched', watched],
  ['without a watchdog', {}],
])('StdioProcessTransport (%s)', (_mode, spawnOptions: Partial<StdioProcessTransportOptions>) => {
  function createTransport(options: Omit<StdioProcessTransportOptions, 'env'>) {
    const transport = new StdioProcessTransport({ env: environment(), closeGraceMs: 500, ...spawnOptions, ...options });
    transports.push(transport);
    return transport;
  }

  it('keeps a multi-byte character that the server wrote in two reads', async () => {
    const garbage: string[] = [];
    const transport = createTransport({
      command: process.execPath,
      args: ['-e', splitWriter],
      onGarbageLine: (line) => garbage.push(line),
    });
    const received: JsonRpcMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await waitFor(() => received.length > 0, 'the response');
    expect(received).toEqual([{ jsonrpc: '2.0', id: 1, result: { text: '検索ツール' } }]);
    expect(garbage).toEqual([]);
  });

  it('reports the pid and exit of the server, and its last stderr line without a newline', async () => {
    const transport = createTransport({
      command: process.execPath,
      args: ['-e', "process.stderr.write('first\\nlast words'); setTimeout(() => process.exit(5), 50)"],
    });
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    expect(transport.pid).toBeGreaterThan(0);
    await waitFor(() => closed, 'the transport to close');
    expect(transport.exit).toEqual({ code: 5, signal: null });
    expect(transport.recentStderr()).toEqual(['first', 'last words']);
  });

  it('tells an end it asked for (closeRequested) from one the server chose', async () => {
    const transport = createTransport({
      command: process.execPath,
      args: ['-e', 'setTimeout(() => process.exit(1), 50)'],
    });
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    await waitFor(() => closed, 'the server to end by itself');
    expect(transport.closeRequested).toBe(false);
    await transport.close();
    expect(transport.closeRequested).toBe(true);
  });

  it('names the working directory when it does not exist, not the command', async () => {
    const transport = createTransport({ command: process.execPath, args: ['-e', '1'], cwd: '/no/such/directory' });
    await expect(transport.start()).rejects.toThrow('working directory does not exist: /no/such/directory');
  });

  it('names a command that does not exist', async () => {
    const transport = createTransport({ command: 'search-mcp-no-such-command-xyz', args: [] });
    await expect(transport.start()).rejects.toThrow('command not found: search-mcp-no-such-command-xyz');
  });
});
