import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { sdkHandlerWrapper, sdkRequestDispatch, sdkServerInternalsProblems } from './sdk-server-internals.js';

// Guards an SDK upgrade: the members `sdk-server-internals.ts` reaches, and the connection behaviour
// `direct-request-dispatch.ts` builds on, are still as this package expects (docs/sdk-couplings.md). What each does
// for us is tested where it is used (`params-checking-server.test.ts`, `direct-request-dispatch.test.ts`).

/** A transport that keeps what the server sends: ours, so the SDK's own connection code runs unchanged over it. */
function recordingTransport(): Transport & { sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  return {
    sent,
    start: async () => {},
    close: async () => {},
    send: async (message) => {
      sent.push(message);
    },
  };
}

describe('the SDK Server members this package reaches below its public API', () => {
  it('are all present on the installed SDK, each with the parameters it is called with', () => {
    // On failure the list says which member went or changed shape, and where to read what uses it.
    expect(sdkServerInternalsProblems()).toEqual([]);
  });

  it("give the Server's own wrapper, and a dispatch bound to the instance that answers a request", async () => {
    const server = new Server({ name: 'internals', version: '1' }, { capabilities: { prompts: {} } });
    const wrapped = sdkHandlerWrapper(server, 'prompts/list', async () => ({ prompts: [] }));
    expect(typeof wrapped).toBe('function');
    const transport = recordingTransport();
    await server.connect(transport);
    const dispatch = sdkRequestDispatch(server);
    expect(dispatch, 'Server.prototype._onrequest is gone: requests would take the SDK classification').toBeTypeOf(
      'function',
    );
    dispatch?.({ jsonrpc: '2.0', id: 7, method: 'ping' });
    await expect.poll(() => transport.sent).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }]);
    await server.close();
  });

  it("connects by wrapping the transport's onmessage, telling the previous handler of every message first", async () => {
    // direct-request-dispatch.ts replaces the SDK's handler after connect and keeps this order for `before`.
    const server = new Server({ name: 'internals', version: '1' }, { capabilities: {} });
    const transport = recordingTransport();
    const heard: string[] = [];
    const before: Transport['onmessage'] = (message) => {
      heard.push('method' in message ? message.method : 'response');
    };
    transport.onmessage = before;
    await server.connect(transport);
    expect(transport.onmessage, "the SDK's connect no longer installs its own onmessage on the transport").not.toBe(
      before,
    );
    transport.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(heard, "the SDK's connect no longer tells the transport's previous onmessage of each message").toEqual([
      'ping',
    ]);
    await expect.poll(() => transport.sent).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    await server.close();
  });
});
