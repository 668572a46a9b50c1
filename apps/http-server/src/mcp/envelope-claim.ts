import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';

/**
 * Whether a parsed `/mcp` POST body is 2026-07-28 traffic for certain, read off the body alone: a JSON-RPC request or
 * notification (a `method`, no `result` or `error`) whose `params._meta` carries the per-request envelope claim (the
 * protocol-version key, whatever its value). The SDK's `isLegacyRequest` answers `false` for every such body, whatever
 * the headers say (its documentation: a request carrying the claim, even a malformed one or one naming a revision the
 * endpoint does not serve, belongs to the modern path, which answers those errors itself). `initialize` is left out:
 * there the SDK keeps the legacy handshake unless the whole envelope is valid.
 *
 * `false` means "ask `isLegacyRequest`", not "legacy". Answering the common 2026-07-28 call here spares it a full
 * classification of its body (the SDK's handler classifies it again when it serves it): the guard test
 * (`envelope-claim.test.ts`) checks each `true` against `isLegacyRequest`.
 */
export function carriesEnvelopeClaim(body: unknown): boolean {
  if (!isRecord(body) || typeof body.method !== 'string' || body.method === 'initialize') return false;
  if ('result' in body || 'error' in body) return false;
  const meta = isRecord(body.params) ? body.params._meta : undefined;
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta;
}
