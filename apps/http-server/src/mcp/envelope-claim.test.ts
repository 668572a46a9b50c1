import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { carriesEnvelopeClaim } from './envelope-claim.js';

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
};

const bodies: Record<string, unknown> = {
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

describe('carriesEnvelopeClaim', () => {
  it('answers true only for bodies the SDK never routes as legacy, whatever the headers (the guard on the SDK)', async () => {
    const claimed: string[] = [];
    for (const [bodyName, body] of Object.entries(bodies)) {
      if (!carriesEnvelopeClaim(body)) continue;
      claimed.push(bodyName);
      for (const [headersName, headers] of Object.entries(headerSets)) {
        const request = new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
        expect({ bodyName, headersName, legacy: await isLegacyRequest(request, body) }).toEqual({
          bodyName,
          headersName,
          legacy: false,
        });
      }
    }
    // What is left to `isLegacyRequest`: initialize, responses, batches, bodies with no claim in `params._meta`.
    expect(claimed).toEqual([
      'a 2026 tools/call',
      'a 2026 notification',
      'a malformed envelope',
      'a claim of a 2025 revision',
      'a claim on a body that is no JSON-RPC',
    ]);
  });

  it('leaves to the SDK an initialize whose envelope is malformed, which it keeps on the legacy handshake', async () => {
    const body = bodies['initialize with a malformed envelope'];
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify(body),
    });
    expect(carriesEnvelopeClaim(body)).toBe(false);
    expect(await isLegacyRequest(request, body)).toBe(true);
  });
});
