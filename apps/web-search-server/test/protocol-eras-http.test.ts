/**
 * The harness's Streamable HTTP leg (issue 10): the app's own server factory behind the 2.x SDK's `createMcpHandler`
 * (2026-07-28 per request, 2025 served statelessly) on a real 127.0.0.1 socket, reached by the same four SDK
 * clients the stdio matrix uses. The app has no HTTP mode of its own; this checks the harness and the factory, and
 * is the shape the full matrix uses for 2026 backends over HTTP. Raw `fetch` checks the `Mcp-Method`/`Mcp-Name`
 * rule that only HTTP has.
 */
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { createWebSearchService, type WebSearchService } from '@search-mcp/openai';
import { createJsonLineLogger } from '@search-mcp/shared';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  connectProtocolEraClient,
  latestLegacyProtocolVersion,
  modernProtocolVersion,
  type ProtocolEraSession,
  protocolEraClients,
  modernRequestMeta,
} from '@search-mcp/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebSearchMcpServer } from '../src/web-search-mcp-server.js';
import { type FetchHandlerServer, startFetchHandlerServer } from './fetch-handler-server.js';

const apiKey = 'sk-proj-ERA-HTTP-5a6b7c8d9e';
const toolName = 'chatgpt_o3_search';

let fake: FakeOpenAiServer;
let service: WebSearchService;
let handler: McpHttpHandler;
let http: FetchHandlerServer;
const logLines: Array<Record<string, unknown>> = [];
const sessions: ProtocolEraSession[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAiServer({ apiKey });
  const logger = createJsonLineLogger({
    level: 'info',
    write: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>),
  });
  service = createWebSearchService({
    openai: { apiKey, baseUrl: fake.baseUrl, maxRetries: 0 },
    pollIntervalMs: 10,
    logger,
  });
  handler = createMcpHandler((context) =>
    createWebSearchMcpServer({ service, version: '0.0.0-test', logger, era: context.era }),
  );
  http = await startFetchHandlerServer((request) => handler.fetch(request));
});
afterAll(async () => {
  await http.close();
  await handler.close();
  await service.close();
  await fake.close();
});
afterEach(async () => {
  fake.options = { apiKey };
  fake.requests.length = 0;
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

const serverReports = (clientName: string) =>
  logLines.filter((line) => line.msg === 'client connected' && (line.client as { name?: string }).name === clientName);

describe.each(protocolEraClients)('over Streamable HTTP: $label', (description) => {
  it('negotiates its era, lists the tool and runs a search with progress', async () => {
    fake.options = { apiKey, webSearch: { statuses: ['queued', 'in_progress', 'completed'] } };
    const clientName = `http-${description.kind}`;
    const session = await connectProtocolEraClient(
      description.kind,
      { transport: 'http', url: http.url },
      { clientName },
    );
    sessions.push(session);
    const expectedVersion =
      description.eraWithBothEraServer === 'modern' ? modernProtocolVersion : latestLegacyProtocolVersion;
    expect({ era: session.era, protocolVersion: session.protocolVersion }).toEqual({
      era: description.eraWithBothEraServer,
      protocolVersion: expectedVersion,
    });

    const listed = await session.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual([toolName]);
    const progress: number[] = [];
    const result = await session.callTool(
      toolName,
      { query: `http ${description.kind}` },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.structuredContent).toMatchObject({ query: `http ${description.kind}` });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    if (session.era === 'modern') {
      // In process, the server's report is logged before its answer is written: every request carries it.
      expect(serverReports(clientName)[0]).toMatchObject({ era: 'modern', protocolVersion: expectedVersion });
    } else {
      // 2025 over stateless HTTP: each request meets a fresh server that never saw the `initialize`, so the server
      // side cannot know the client (the stdio matrix checks the server's report of 2025 connections).
      expect(serverReports(clientName)).toEqual([]);
    }
    expect(session.transportErrors).toEqual([]);
  });
});

describe('over Streamable HTTP: request headers (2026-07-28)', () => {
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: toolName, arguments: { query: 'headers' }, _meta: modernRequestMeta(modernProtocolVersion) },
  };
  const post = (headers: Record<string, string>) =>
    fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': modernProtocolVersion,
        ...headers,
      },
      body: JSON.stringify(call),
    });

  it('a call whose Mcp-Method or Mcp-Name disagrees with the body is refused with 400 and -32020', async () => {
    const disagreeing: Array<Record<string, string>> = [{}, { 'mcp-method': 'tools/call', 'mcp-name': 'another_tool' }];
    for (const headers of disagreeing) {
      const response = await post(headers);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32020 } });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('with matching headers the same call runs, without a session id', async () => {
    const response = await post({ 'mcp-method': 'tools/call', 'mcp-name': toolName });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.text()).toContain('"query":"headers"');
  });
});
