import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type McpHttpHandler,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { isRecord } from '@search-mcp/shared';
import { authInfoOf } from './caller-auth-info.js';
import type { PerRequestInstances } from './per-request-instances.js';

const modernRevision = '2026-07-28';

/**
 * The tool list `caller` would get now, asked from the handler as a 2026-07-28 client would ask it (in process, no
 * socket): what a caller sees stays decided in one place, the server's own `tools/list`. Returned as one comparable
 * string (the tools as JSON).
 * @throws Error carrying the JSON-RPC error when the list is refused
 */
export async function toolListOf(
  handler: McpHttpHandler,
  caller: Caller,
  instances: PerRequestInstances,
): Promise<string> {
  const body = {
    jsonrpc: '2.0',
    id: 'search-mcp-listen-check',
    method: 'tools/list',
    params: {
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: modernRevision,
        [CLIENT_INFO_META_KEY]: { name: 'search-mcp-listen-check', version: '1' },
        [CLIENT_CAPABILITIES_META_KEY]: {},
      },
    },
  };
  const request = new Request('http://search-mcp.internal/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': modernRevision,
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify(body),
  });
  try {
    const response = await handler.fetch(request, { authInfo: authInfoOf(caller), parsedBody: body });
    const answer = lastMessageOf(await response.text());
    if (!isRecord(answer?.result)) throw new Error(JSON.stringify(answer?.error ?? answer));
    return JSON.stringify(answer.result.tools);
  } finally {
    instances.release(request);
  }
}

/** The last JSON-RPC message of a JSON or SSE body (an SSE answer ends with the response). */
function lastMessageOf(text: string): { result?: unknown; error?: unknown } | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed) as { result?: unknown };
  const data = trimmed
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim());
  const last = data.at(-1);
  return last === undefined ? undefined : (JSON.parse(last) as { result?: unknown });
}
