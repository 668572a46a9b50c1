import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';

/**
 * Whether a `/mcp` POST is 2025-era traffic (the endpoint's sessions serve it) rather than 2026-07-28 traffic (the
 * SDK's `createMcpHandler` serves it): the SDK's own rule, `classifyInboundRequest` (its exported body-primary
 * predicate, the one `isLegacyRequest` and the handler run), applied to the body Fastify already parsed and the three
 * headers it reads. Every POST passes here, so no web `Request` is built for it (building one, to hand it to
 * `isLegacyRequest`, cost a 2025 request twice the classification itself). The usual 2026-07-28 call is known from
 * its body alone (`carriesEnvelopeClaim`): the SDK's handler classifies it again when it serves it, and its envelope
 * is the costly part of a classification. The guard test (`legacy-post.test.ts`) checks every answer, the shortcut's
 * included, against `isLegacyRequest` itself.
 *
 * A POST without a parsed body (no JSON) is legacy, as `isLegacyRequest` has it: the 2025 transport answers it.
 */
export function isLegacyPost(request: FastifyRequest): boolean {
  if (request.body === undefined) return true;
  if (carriesEnvelopeClaim(request.body)) return false;
  const outcome = classifyInboundRequest({
    httpMethod: request.method,
    ...optional('protocolVersionHeader', headerOf(request, 'mcp-protocol-version')),
    ...optional('mcpMethodHeader', headerOf(request, 'mcp-method')),
    ...optional('mcpNameHeader', headerOf(request, 'mcp-name')),
    body: request.body,
  });
  return outcome.kind === 'legacy';
}

/** A header as the web `Headers.get` gives it (repeated values joined by `, `); `undefined` when absent. */
export function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

/**
 * Whether a parsed body is 2026-07-28 traffic for certain: a JSON-RPC request or notification (a `method`, no `result`
 * or `error`) whose `params._meta` carries the per-request envelope claim (the protocol-version key, whatever its
 * value). The SDK never routes such a body to legacy serving, whatever the headers say (a request carrying the claim,
 * even a malformed one or one naming a revision the endpoint does not serve, belongs to the modern path, which
 * answers those errors itself). `initialize` is left out: there the SDK keeps the legacy handshake unless the whole
 * envelope is valid. `false` means "classify it", not "legacy".
 */
export function carriesEnvelopeClaim(body: unknown): boolean {
  if (!isRecord(body) || typeof body.method !== 'string' || body.method === 'initialize') return false;
  if ('result' in body || 'error' in body) return false;
  const meta = isRecord(body.params) ? body.params._meta : undefined;
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta;
}
