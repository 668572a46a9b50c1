import { isRecord, JsonRpcErrorCode } from '@search-mcp/shared';
import { JsonRpcWireError } from '../wire-errors.js';

/** The lists Search MCP pages over several backends. */
export type ListKind = 'resources' | 'resourceTemplates' | 'tasks';

/** A place in a list that spans servers: the server whose page comes next, and that server's own cursor. */
export interface ListPosition {
  serverId: string;
  cursor?: string;
}

/**
 * Our cursor for a list that spans servers: base64url of `{ v: 1, k: kind, s: serverId, c: backendCursor }`. Opaque
 * to clients (the spec says so), readable by us without any state, so it survives reconnects of the client.
 */
export function encodeListCursor(kind: ListKind, position: ListPosition): string {
  const body = {
    v: 1,
    k: kind,
    s: position.serverId,
    ...(position.cursor !== undefined ? { c: position.cursor } : {}),
  };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const base64url = /^[A-Za-z0-9_-]+$/;

/**
 * Reads a cursor of ours. Anything we did not make for this list and this caller is `-32602 Invalid cursor` (the
 * spec's code for an invalid cursor): not base64url JSON, another version or list, a server the caller cannot see,
 * a backend cursor that is not a string.
 */
export function decodeListCursor(kind: ListKind, text: string, visibleServerIds: readonly string[]): ListPosition {
  const invalid = (why: string) => new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Invalid cursor: ${why}`);
  if (!base64url.test(text)) throw invalid('not a cursor Search MCP returned');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not a cursor Search MCP returned');
  }
  if (!isRecord(body) || body.v !== 1 || typeof body.s !== 'string') throw invalid('not a cursor Search MCP returned');
  if (body.k !== kind) throw invalid(`it belongs to another list than ${kind}`);
  if (!visibleServerIds.includes(body.s)) throw invalid('it names a server that is not available');
  if (body.c !== undefined && typeof body.c !== 'string') throw invalid('not a cursor Search MCP returned');
  return { serverId: body.s, ...(typeof body.c === 'string' ? { cursor: body.c } : {}) };
}

/** For lists answered in one page (`tools/list` in proxy mode, `prompts/list`): any cursor is one we never gave. */
export function refuseCursor(method: string, cursor: unknown): void {
  if (cursor !== undefined) {
    throw new JsonRpcWireError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid cursor: ${method} is answered in one page, so it takes no cursor`,
    );
  }
}
