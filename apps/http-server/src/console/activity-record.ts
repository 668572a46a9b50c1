import type { AuditRecord } from '@search-mcp/runtime';

/** An audit record as the console shows it (docs/console.md, `ActivityRecord`): argument values are never recorded. */
export interface ActivityRecord {
  ts: string;
  requestId: string;
  event: AuditRecord['event'];
  toolKey?: string;
  serverId?: string;
  projectId?: string;
  /** Who called: the OAuth subject, else the token id, else "anonymous". */
  caller: string;
  queries?: string[];
  resultCount?: number;
  durationMs: number;
  outcome: AuditRecord['outcome'];
  errorCode?: string;
}

export function toActivityRecord(record: AuditRecord): ActivityRecord {
  const { tokenId, subject, ...rest } = record;
  return { ...rest, caller: subject ?? tokenId ?? 'anonymous' };
}
