import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createNodeSessionTransport } from '../legacy/node-session-transport.js';
import { serveInternally } from './internal-request.js';

const initialize = {
  jsonrpc: '2.0' as const,
  id: 'replayed-initialize',
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: { roots: {} },
    clientInfo: { name: 'replayed', version: '3' },
  },
};

describe('serveInternally', () => {
  it('opens a session under the id its generator gives, with the client the stored initialize names', async () => {
    const server = new Server({ name: 'replica', version: '1' }, { capabilities: { tools: {} } });
    const transport = createNodeSessionTransport({ sessionIdGenerator: () => 'the-stored-id' });
    await server.connect(transport);
    expect(await serveInternally(transport, initialize)).toBe(200);
    expect(transport.sessionId).toBe('the-stored-id');
    const session = { 'mcp-session-id': 'the-stored-id', 'mcp-protocol-version': '2025-06-18' };
    expect(await serveInternally(transport, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).toBe(
      202,
    );
    expect(server.getClientVersion()).toEqual({ name: 'replayed', version: '3' });
    expect(server.getClientCapabilities()).toEqual({ roots: {} });
    // A second initialize is refused by the transport as from a client: the replay is no back door.
    expect(await serveInternally(transport, initialize)).toBe(400);
    await server.close();
  });
});
