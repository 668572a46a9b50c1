import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EmptyResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { legacyClientInternalsProblems, sdkResponseDispatch } from './legacy-client-internals.js';

// Guards an SDK upgrade: the member `legacy-client-internals.ts` reaches, and the connection behaviour
// `direct-response-dispatch.ts` builds on, are still as this package expects (docs/sdk-couplings.md, 7). What the
// dispatch does for us is tested in `direct-response-dispatch.test.ts`.

/** A real 1.x server on one end of a linked pair, and the other end for a client. */
async function pairedServer(): Promise<{ clientSide: InMemoryTransport; server: Server }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new Server({ name: 'internals', version: '1' }, { capabilities: {} });
  await server.connect(serverSide);
  return { clientSide, server };
}

describe('the 1.x SDK Client member this package reaches below its public API', () => {
  it('is present on the installed SDK, with the parameter it is called with', () => {
    // On failure the list says whether the member went or changed shape, and where to read what uses it.
    expect(legacyClientInternalsProblems()).toEqual([]);
  });

  it("gives a dispatch bound to the instance that settles the client's pending request", async () => {
    const { clientSide, server } = await pairedServer();
    const client = new Client({ name: 'internals', version: '1' });
    await client.connect(clientSide);
    const dispatch = sdkResponseDispatch(client);
    expect(dispatch, 'Client.prototype._onresponse is gone: answers would take the SDK classification').toBeTypeOf(
      'function',
    );
    // The server answers the ping over the pair; the same answer handed to the dispatch first settles the request.
    const sent: JSONRPCMessage[] = [];
    const send = clientSide.send.bind(clientSide);
    clientSide.send = async (message, options) => {
      sent.push(message);
      if ('id' in message && 'method' in message && message.method === 'ping') {
        dispatch?.({ jsonrpc: '2.0', id: message.id, result: { answeredBy: 'dispatch' } });
        return;
      }
      return send(message, options);
    };
    await expect(client.request({ method: 'ping' }, EmptyResultSchema.loose())).resolves.toEqual({
      answeredBy: 'dispatch',
    });
    expect(sent.map((message) => ('method' in message ? message.method : undefined))).toEqual(['ping']);
    await client.close();
    await server.close();
  });

  it("connects by wrapping the transport's onmessage, telling the previous handler of every message first", async () => {
    // direct-response-dispatch.ts replaces the SDK's handler after connect and keeps this order for `before`.
    const { clientSide, server } = await pairedServer();
    const heard: string[] = [];
    const before: Transport['onmessage'] = (message) => {
      heard.push('method' in message ? message.method : `response ${String(message.id)}`);
    };
    clientSide.onmessage = before;
    const client = new Client({ name: 'internals', version: '1' });
    await client.connect(clientSide);
    expect(clientSide.onmessage, "the SDK's connect no longer installs its own onmessage on the transport").not.toBe(
      before,
    );
    expect(heard, "the SDK's connect no longer tells the transport's previous onmessage of each message").toEqual([
      'response 0',
    ]);
    await client.close();
    await server.close();
  });
});
