import { type Result, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';

/**
 * A forwarded result without the backend's own `_meta["io.modelcontextprotocol/serverInfo"]` (a 2026-07-28 backend
 * stamps it on every result): the client's server is Search MCP, and the SDK stamps ours on 2026 answers.
 */
export function withoutBackendServerInfo(result: Result): Result {
  const meta = result._meta;
  if (!isRecord(meta) || !(SERVER_INFO_META_KEY in meta)) return result;
  const { [SERVER_INFO_META_KEY]: _backend, ...rest } = meta;
  if (Object.keys(rest).length > 0) return { ...result, _meta: rest };
  const { _meta: _dropped, ...withoutMeta } = result;
  return withoutMeta as Result;
}
