/**
 * A remote MCP server (Streamable HTTP, stateless, on 127.0.0.1) that echoes the `Authorization` header it received,
 * as careless servers do in their error bodies:
 *   whoami:     fails with a JSON-RPC error quoting the header;
 *   http-error: the HTTP layer answers 500 with a text body quoting the header.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

export async function startEchoAuthorizationServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const http = createServer(async (request, response) => {
    const authorization = request.headers.authorization ?? '(none)';
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    const toolName = (body as { method?: string; params?: { name?: string } } | undefined)?.params?.name;
    if (toolName === 'http-error') {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`upstream rejected the request with Authorization: ${authorization}`);
      return;
    }
    const server = new Server({ name: 'echo-authorization', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'whoami', description: 'Fails quoting the Authorization header', inputSchema: { type: 'object' } },
        {
          name: 'http-error',
          description: 'HTTP 500 quoting the Authorization header',
          inputSchema: { type: 'object' },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => {
      throw new McpError(ErrorCode.InternalError, `not authorized: you sent Authorization: ${authorization}`);
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
