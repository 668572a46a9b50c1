/** One audit line (one per `tool_discovery`, `tool_execute`, direct `tools/call` and REST call). Types only. */
export interface AuditRecord {
  ts: string;
  requestId: string;
  event: 'tool_discovery' | 'tool_execute' | 'tools/call' | 'rest';
  toolKey?: string;
  serverId?: string;
  projectId?: string;
  tokenId?: string;
  /** An OAuth caller's subject (the token's `sub`, docs/oauth-in-front.md); absent for a static token or anonymous. */
  subject?: string;
  queries?: string[];
  resultCount?: number;
  durationMs: number;
  /**
   * `ok`; `tool_error` (the tool ran and returned isError); `input_required` (a 2026-07-28 backend asked the client
   * for input: the call goes on in the client's retry, audited as its own record); `error` (the call failed);
   * `cancelled`.
   */
  outcome: 'ok' | 'tool_error' | 'input_required' | 'error' | 'cancelled';
  errorCode?: string;
}

/**
 * Where audit records go. Argument values are never recorded. `@search-mcp/runtime` has a JSON-lines file sink;
 * anything with `record` will do.
 */
export interface AuditSink {
  record(record: AuditRecord): void;
  close?(): Promise<void>;
}
