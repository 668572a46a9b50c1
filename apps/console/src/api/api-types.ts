/**
 * The shapes of the REST answers the console reads (docs/console.md, "REST API used by the console", and
 * apps/http-server/README.md). Only the fields the pages use; the server may send more.
 */

export type ServerState = 'starting' | 'running' | 'crashed' | 'stopped' | 'disabled' | 'failed' | 'needs-auth';

export interface ServerStatus {
  id: string;
  state: ServerState;
  transport?: 'stdio' | 'http' | 'sse';
  toolCount: number;
  connectedAt?: string;
  lastError?: string;
  restarts: number;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  protocolEra?: 'legacy' | 'modern';
  oauth?: { state: 'authorized' | 'needs-auth' | 'pending' | 'none' };
}

export interface ToolSummary {
  toolKey: string;
  name: string;
  serverName: string;
  description: string;
  enabled: boolean;
}

export interface ToolDetail extends ToolSummary {
  title?: string;
  inputSchema: Record<string, unknown>;
  serverDescription?: string;
}

export interface ToolList {
  tools: ToolSummary[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

export interface SearchHit {
  toolKey: string;
  toolName: string;
  serverName: string;
  title?: string;
  description?: string;
  relevance: number;
  explanation?: string;
}

export interface SearchAnswer {
  results: SearchHit[];
  total: number;
  match: 'good' | 'weak' | 'none';
  notice?: string;
  strategy?: string;
  /** Why the configured ranker was not used (the local one ranked instead). */
  fallbackReason?: string;
}

export interface ToolCallAnswer {
  success: boolean;
  result?: { content?: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };
  error?: string;
  code?: string;
  executionTime?: number;
}

export interface ActivityRecord {
  ts: string;
  requestId: string;
  event: 'tool_discovery' | 'tool_execute' | 'tools/call' | 'rest';
  toolKey?: string;
  serverId?: string;
  projectId?: string;
  caller: string;
  queries?: string[];
  resultCount?: number;
  durationMs: number;
  outcome: 'ok' | 'tool_error' | 'input_required' | 'error' | 'cancelled';
  errorCode?: string;
}

export interface ConsoleEvent {
  at: string;
  kind: 'reload' | 'reload-failed' | 'server-state';
  servers?: { added: string[]; removed: string[]; changed: string[] };
  notApplied?: string[];
  error?: string;
  serverId?: string;
  from?: string;
  to?: string;
}

export interface UsageFigures {
  calls: number;
  errors: number;
  p50Ms?: number;
  p95Ms?: number;
}

export type UsageWindow = '1h' | '24h' | '7d';

export interface UsageReport {
  window: UsageWindow;
  from: string;
  to: string;
  bucketMs: number;
  persisted: boolean;
  totals: UsageFigures;
  servers: Array<UsageFigures & { serverId: string }>;
  tools: Array<UsageFigures & { toolKey: string; serverId: string; lastCallAt?: string }>;
  series: Array<UsageFigures & { at: string }>;
  searches: { count: number; noMatch: number; p50Ms?: number; p95Ms?: number };
}

export interface ConfigAnswer {
  path?: string;
  config: unknown;
  warnings?: Array<string | { message?: string; path?: string }>;
}

export interface AuthorizeAnswer {
  serverId: string;
  authorizationUrl?: string;
  authorized?: true;
}
