import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { isLegacyPost } from './legacy-post.js';

const envelope = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'guard', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const headerSets: Record<string, Record<string, string>> = {
  none: {},
  modern: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
  legacy: { 'mcp-protocol-version': '2025-06-18' },
  unknown: { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'ping' },
  'modern, no method header': { 'mcp-protocol-version': '2026-07-28' },
  'padded modern': { 'mcp-protocol-version': ' 2026-07-28 ', 'mcp-method': ' tools/list ' },
};

const bodies: Record<string, unknown> = {
  'a 2025 initialize': {
    jsonrpc: '2.0',
    id: 10,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  },
  'a 2025 notification': { jsonrpc: '2.0', method: 'notifications/initialized' },
  'a 2025 response': { jsonrpc: '2.0', id: 11, result: {} },
  'a 2026 tools/list': { jsonrpc: '2.0', id: 12, method: 'tools/list', params: { _meta: envelope } },
  'a batch without a claim': [{ jsonrpc: '2.0', id: 13, method: 'tools/list' }],
  'a JSON null': null,
  'a JSON string': 'tools/list',
  'a 2026 tools/call': {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: {}, _meta: envelope },
  },
  'a 2026 notification': { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: envelope } },
  'a malformed envelope': {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/list',
    params: { _meta: { [PROTOCOL_VERSION_META_KEY]: 7 } },
  },
  'a claim of a 2025 revision': {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/list',
    params: { _meta: { ...envelope, [PROTOCOL_VERSION_META_KEY]: '2025-06-18' } },
  },
  'a claim on a body that is no JSON-RPC': { method: 'tools/list', params: { _meta: envelope } },
  'initialize with an envelope': { jsonrpc: '2.0', id: 4, method: 'initialize', params: { _meta: envelope } },
  'initialize with a malformed envelope': {
    jsonrpc: '2.0',
    id: 5,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
      _meta: { [PROTOCOL_VERSION_META_KEY]: 1 },
    },
  },
  'a response carrying a claim': { jsonrpc: '2.0', id: 6, method: 'x', result: {}, params: { _meta: envelope } },
  'a 2025 tools/call': { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: {} } },
  'a batch with a claim': [{ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: envelope } }],
  'a claim outside _meta': {
    jsonrpc: '2.0',
    id: 9,
    method: 'tools/list',
    params: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' },
  },
};

/** A Fastify app answering whether each POST is legacy by `isLegacyPost`, on the body Fastify parsed. */
const app = Fastify();
app.post('/mcp', async (request) => ({ legacy: isLegacyPost(request) }));
afterAll(() => app.close());

async function legacyHere(body: unknown, headers: Record<string, string>): Promise<boolean> {
  const response = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { legacy: boolean }).legacy;
}

async function legacyBySdk(body: unknown, headers: Record<string, string>): Promise<boolean> {
  const request = new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return isLegacyRequest(request, body);
}

describe('isLegacyPost', () => {
  it('answers as the SDK’s isLegacyRequest for every body under every set of headers (the guard on the SDK)', async () => {
    const answers: Record<string, boolean> = {};
    for (const [bodyName, body] of Object.entries(bodies)) {
      for (const [headersName, headers] of Object.entries(headerSets)) {
        const here = await legacyHere(body, headers);
        expect({ bodyName, headersName, legacy: here }).toEqual({
          bodyName,
          headersName,
          legacy: await legacyBySdk(body, headers),
        });
        answers[`${bodyName} / ${headersName}`] = here;
      }
    }
    // Both answers occur: the check above compared routings, not one constant.
    expect(answers['a 2025 tools/call / legacy']).toBe(true);
    expect(answers['a 2026 tools/call / modern']).toBe(false);
    expect(answers['initialize with a malformed envelope / legacy']).toBe(true);
  });

  it('takes a POST with no JSON body for legacy traffic, as the SDK does (the 2025 transport answers it)', async () => {
    const response = await app.inject({ method: 'POST', url: '/mcp', payload: '' });
    expect(response.json()).toEqual({ legacy: true });
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', body: '' });
    expect(await isLegacyRequest(request)).toBe(true);
  });
});
