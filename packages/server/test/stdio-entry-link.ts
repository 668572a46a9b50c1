import { InMemoryTransport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/** What `serveStdio` makes a server of, per connection: `({ era }) => server`. */
export type EntryServerFactory = Parameters<typeof serveStdio>[0];

/** A client of either SDK major (the 1.x `Client` takes the same in-memory transport). */
export interface LinkedClient {
  connect(transport: InMemoryTransport): Promise<unknown>;
  close(): Promise<unknown>;
}

/**
 * Connects `client` over an in-memory link to the SDK's stdio entry (`serveStdio`), which serves either protocol era
 * with a server from `factory`, as `search-mcp serve` does. Resolves with the function that closes both ends.
 */
export async function connectThroughEntry(
  client: LinkedClient,
  factory: EntryServerFactory,
): Promise<() => Promise<void>> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const entry = serveStdio(factory, { transport: serverTransport });
  await client.connect(clientTransport);
  return async () => {
    await client.close();
    await entry.close();
  };
}

/** The `_meta` envelope a bare 2026-07-28 peer sends with every request (no handshake in that revision). */
export function modernEnvelope(capabilities: Record<string, unknown>): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bare', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/**
 * A bare peer of the SDK's stdio entry, no SDK client: `send` writes one JSON-RPC request with `meta` as its `_meta`
 * and resolves with the answer as it is on the wire (a 2.x client would lift `resultType`, and refuses methods its
 * revision does not have).
 */
export async function connectBarePeer(factory: EntryServerFactory, meta: Record<string, unknown>) {
  const [peer, serverTransport] = InMemoryTransport.createLinkedPair();
  const entry = serveStdio(factory, { transport: serverTransport });
  const answers = new Map<number, (message: Record<string, unknown>) => void>();
  peer.onmessage = (message) => {
    const { id } = message as { id?: unknown };
    if (typeof id === 'number') answers.get(id)?.(message as Record<string, unknown>);
  };
  await peer.start();
  let nextId = 0;
  return {
    send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
      const id = ++nextId;
      const answered = new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
      void peer.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
      return answered;
    },
    async close(): Promise<void> {
      await peer.close();
      await entry.close();
    },
  };
}
