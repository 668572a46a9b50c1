import type { AuditRecord } from '@search-mcp/server';
import { formatToolKey, parseToolKey } from '@search-mcp/shared';

/** Error codes of a call whose tool key named no known tool (the catalog's `ToolNotFoundError`, REST's 404). */
const unknownToolCodes = new Set(['TOOL_NOT_FOUND', 'HTTP_404']);

/** What an audit record counts as in the usage statistics (docs/console.md, "Usage statistics"). */
export type UsageRecordKind =
  | { kind: 'call'; toolKey: string; serverId: string; error: boolean }
  | { kind: 'search'; noMatch: boolean }
  | { kind: 'none' };

/**
 * Calls: `tool_execute`, a direct `tools/call`, and the REST tool call — the one REST route that names a tool in its
 * audit line (`POST /v1/tools/call`; reading a tool, `GET /v1/tools/:toolKey`, names none). Searches:
 * `tool_discovery` and the REST searches (their lines carry `queries`). An `input_required` record is not counted:
 * the call goes on in the client's retry, audited as its own record. A call refused before it named a tool cannot be
 * given to one and is not counted, nor is a call to a tool that does not exist (`TOOL_NOT_FOUND`, a REST 404): a
 * caller could fill the series cap with made-up keys. Keys are counted in their `server:tool` form.
 */
export function usageRecordKind(record: AuditRecord): UsageRecordKind {
  if (record.event === 'tool_discovery' || (record.event === 'rest' && record.queries !== undefined)) {
    return { kind: 'search', noMatch: record.outcome === 'ok' && record.resultCount === 0 };
  }
  if (record.toolKey === undefined || record.outcome === 'input_required') return { kind: 'none' };
  if (record.errorCode !== undefined && unknownToolCodes.has(record.errorCode)) return { kind: 'none' };
  // A key sent as `server.tool` or `server__tool` is the same tool as `server:tool` (docs/tool-names.md).
  const parsed = parseToolKey(record.toolKey);
  const serverId = record.serverId ?? parsed?.serverId ?? record.toolKey;
  return {
    kind: 'call',
    toolKey: parsed ? formatToolKey(parsed.serverId, parsed.toolName) : record.toolKey,
    serverId,
    error: record.outcome === 'error' || record.outcome === 'tool_error',
  };
}
