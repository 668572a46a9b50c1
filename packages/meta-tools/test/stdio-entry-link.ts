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
