import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, inputRequired, inputResponse, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { ToolCatalog } from '@search-mcp/catalog';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSearchMcpServer } from './create-search-mcp-server.js';
import { ParamsCheckingServer } from './params-checking-server.js';
import packageJson from '../package.json' with { type: 'json' };

/** Sends raw JSON-RPC to a real Search MCP server and collects what it answers, by id. */
async function rawSession() {
  const server = createSearchMcpServer({ catalog: new ToolCatalog({ sources: [], config: { mcpServers: {} } }) });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<unknown, JSONRPCMessage>();
  const waiters = new Map<unknown, (message: JSONRPCMessage) => void>();
  client.onmessage = (message) => {
    const id = (message as { id?: unknown }).id;
    answers.set(id, message);
    waiters.get(id)?.(message);
  };
  await server.connect(serverSide);
  await client.start();
  const request = (id: number, method: string, params?: unknown) =>
    new Promise<JSONRPCMessage>((resolve) => {
      waiters.set(id, resolve);
      void client.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) } as JSONRPCMessage);
    });
  return { request, close: () => client.close() };
}

describe('requests whose params do not fit the method', () => {
  it('answer -32602 with one readable line, not -32603 with a zod dump', async () => {
    const session = await rawSession();
    const initialize = await session.request(1, 'initialize', { protocolVersion: 5, capabilities: {} });
    expect(initialize).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message:
          'Invalid initialize params: protocolVersion: Invalid input: expected string, received number; clientInfo: Invalid input: expected object, received undefined',
      },
    });
    const list = await session.request(2, 'tools/list', { cursor: 42 });
    expect(list).toMatchObject({ id: 2, error: { code: -32602 } });
    expect((list as { error: { message: string } }).error.message).toBe(
      'Invalid tools/list params: cursor: Invalid input: expected string, received number',
    );
    const call = await session.request(3, 'tools/call');
    expect(call).toMatchObject({
      id: 3,
      error: {
        code: -32602,
        message: 'Invalid tools/call params: params: Invalid input: expected object, received undefined',
      },
    });
    const noName = await session.request(4, 'tools/call', { arguments: {} });
    expect(noName).toMatchObject({
      id: 4,
      error: { code: -32602, message: 'Invalid tools/call params: "name" must be a non-empty string' },
    });
    await session.close();
  });

  it('still answers good requests, and unknown methods with -32601', async () => {
    const session = await rawSession();
    const initialize = await session.request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    expect(initialize).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'search-mcp', version: packageJson.version } },
    });
    expect(await session.request(2, 'ping')).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(await session.request(3, 'resources/list', {})).toMatchObject({ id: 3, error: { code: -32601 } });
    await session.close();
  });
});

describe('tools/call keeps the SDK multi-round-trip seam, not its result validation', () => {
  it('a 2025 client is asked by the legacy shim and the handler re-entered; the result passes as it is', async () => {
    const server = new ParamsCheckingServer({ name: 'seam', version: '1' }, { capabilities: { tools: {} } });
    const entries: Array<{ answered: boolean; state: string | undefined }> = [];
    server.handle('tools/call', async (_request, extra) => {
      const answer = inputResponse(extra.inputResponses, 'who');
      entries.push({ answered: answer.kind === 'elicit', state: extra.requestState });
      if (answer.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            who: inputRequired.elicit({ message: 'Who?', requestedSchema: { type: 'object', properties: {} } }),
          },
          requestState: 'round-1',
        });
      }
      // A block type the SDK does not know: its result validation would refuse it.
      return { content: [{ type: 'x-future-block', said: answer.action }] };
    });
    const client = new Client({ name: 'legacy', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const result = await client.request(
      { method: 'tools/call', params: { name: 'anything', arguments: {} } },
      z.looseObject({}),
    );
    expect(result).toEqual({ content: [{ type: 'x-future-block', said: 'decline' }] });
    expect(entries).toEqual([
      { answered: false, state: undefined },
      { answered: true, state: 'round-1' },
    ]);
    await client.close();
  });
});
