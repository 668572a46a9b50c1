import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { fixtureServer } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../test/test-support.js';
import { McpClientManager, type ReverseRequest } from '../index.js';

/** A backend that asks for sampling `delayMs` into a call, on the call's own POST stream (as the SDK does). */
function createAskingServer(): Server {
  const server = new Server({ name: 'asking', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'ask', inputSchema: { type: 'object', properties: { delayMs: { type: 'number' } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await new Promise((resolve) => setTimeout(resolve, Number(request.params.arguments?.delayMs ?? 0)));
    const result = await extra.sendRequest(
      { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
      CreateMessageResultSchema,
    );
    return { content: [{ type: 'text', text: String((result.content as { text?: string }).text) }] };
  });
  return server;
}

async function startHttpBackend(): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((request, response) => {
    void (async () => {
      const sessionId = request.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport) {
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
        });
        transport = created;
        await createAskingServer().connect(transport);
      }
      await transport.handleRequest(request, response);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe('exact origin of reverse requests', () => {
  let backend: { url: string; close: () => Promise<void> };
  let manager: McpClientManager;
  const requests: ReverseRequest[] = [];

  beforeAll(async () => {
    backend = await startHttpBackend();
    manager = new McpClientManager(
      { mcpServers: { remote: { type: 'http', url: backend.url }, local: fixtureServer('feature-server.mjs') } },
      {
        logger: createRecordingLogger().logger,
        shutdownGraceMs: 300,
        reverseRequests: {
          clientCapabilities: () => ({ sampling: {} }),
          async route(request) {
            requests.push(request);
            const label = (request.exactOrigin as { label?: string } | undefined)?.label ?? 'unknown';
            return { role: 'assistant', content: { type: 'text', text: label }, model: 'test' };
          },
        },
      },
    );
    await manager.startAll();
  }, 30_000);

  afterAll(async () => {
    await manager?.close();
    await backend?.close();
  });

  it('names the call whose Streamable HTTP stream carried the request, even when a newer call is in flight', async () => {
    const older = { label: 'older' };
    const newer = { label: 'newer' };
    // The older call asks first, while the newer one is still waiting: "most recent" would pick the wrong one.
    const first = manager.callTool('remote', 'ask', { delayMs: 300 }, { origin: older });
    const second = manager.callTool('remote', 'ask', { delayMs: 1200 }, { origin: newer });
    const [olderResult, newerResult] = await Promise.all([first, second]);
    expect((olderResult.content?.[0] as { text?: string } | undefined)?.text).toBe('older');
    expect((newerResult.content?.[0] as { text?: string } | undefined)?.text).toBe('newer');
    const asked = requests.filter((request) => request.serverId === 'remote');
    expect(asked[0]?.exactOrigin).toBe(older);
    expect(asked[0]?.inFlight.map((entry) => entry.origin)).toEqual([newer, older]);
    expect(asked[1]?.exactOrigin).toBe(newer);
  });

  it('has no exact origin for a stdio backend (no channel to tell)', async () => {
    await manager.callTool('local', 'ask-sampling', {}, { origin: { label: 'stdio' } });
    const asked = requests.filter((request) => request.serverId === 'local');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.exactOrigin).toBeUndefined();
    expect(asked[0]?.inFlight.map((entry) => entry.origin)).toEqual([{ label: 'stdio' }]);
  });
});
