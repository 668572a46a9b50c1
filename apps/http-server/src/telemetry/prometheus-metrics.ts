import type { AuditRecord } from '@search-mcp/runtime';
import { parseToolKey, type ServerState, type ServerStatus } from '@search-mcp/shared';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { BoundedLabelValues, otherLabelValue } from './bounded-label-values.js';

/** What the metrics read at each scrape rather than count as they go. */
export interface MetricSources {
  /** The backend servers' statuses (state, restarts); absent in an app without a client manager. */
  servers?: () => ServerStatus[];
  /** Open MCP sessions (2025 Streamable HTTP). */
  sessions: () => number;
}

/**
 * Distinct (server, tool) label pairs kept before further tools fold into `tool="(other)"`: tools come from the
 * configured servers, but a REST call may name any tool key.
 */
export const maxToolLabelValues = 2000;
/** Error codes of a call whose tool key named no known tool (the catalog's `ToolNotFoundError`, REST's 404). */
const unknownToolCodes = new Set(['TOOL_NOT_FOUND', 'HTTP_404']);
/** Distinct server label values kept (a REST call may name a server that is not configured). */
export const maxServerLabelValues = 200;

const serverStates: readonly ServerState[] = [
  'starting',
  'running',
  'crashed',
  'stopped',
  'disabled',
  'failed',
  'needs-auth',
];
/** Seconds: from a cached answer to a backend that takes minutes. */
const callBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Seconds: a search is in-process ranking (BM25 in milliseconds), or a model's ranking (seconds). */
const searchBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The app's Prometheus metrics (docs/console.md, "Telemetry"), in a registry of its own: never prom-client's global
 * one, so two apps in one process (tests, `search-mcp ui` beside a server) keep their own figures. Calls, errors,
 * durations and searches are counted from the audit records; backend states, restarts and sessions are read at
 * scrape time.
 */
export class PrometheusMetrics {
  readonly registry = new Registry();
  private readonly tools = new BoundedLabelValues(maxToolLabelValues);
  private readonly servers = new BoundedLabelValues(maxServerLabelValues);
  private readonly toolCalls: Counter<'server' | 'tool' | 'outcome'>;
  private readonly toolCallDuration: Histogram<'server' | 'tool'>;
  private readonly searches: Counter<'outcome'>;
  private readonly searchDuration: Histogram;
  private readonly httpRequests: Counter<'route' | 'status'>;
  /** Each server label's (tool, outcome) pairs, to drop its series once the server is no longer configured. */
  private readonly seriesByServer = new Map<string, Map<string, Set<string>>>();

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    const readServers = sources.servers;
    // The standard names (`process_cpu_seconds_total`, `nodejs_heap_size_used_bytes`, …) that dashboards expect.
    collectDefaultMetrics({ register: this.registry });
    this.toolCalls = new Counter({
      name: 'search_mcp_tool_calls_total',
      help: 'Backend tool calls (tool_execute, direct tools/call, REST), by outcome: ok, tool_error, error, cancelled',
      labelNames: ['server', 'tool', 'outcome'],
      registers,
      // Collected before the duration histogram (registration order): both lose a removed server's series here.
      collect: readServers ? () => this.forgetRemovedServers(readServers()) : undefined,
    });
    this.toolCallDuration = new Histogram({
      name: 'search_mcp_tool_call_duration_seconds',
      help: 'How long backend tool calls took, as Search MCP served them',
      labelNames: ['server', 'tool'],
      buckets: callBuckets,
      registers,
    });
    this.searches = new Counter({
      name: 'search_mcp_searches_total',
      help: 'Tool searches (tool_discovery and the REST searches), by outcome: ok, no_results, error, cancelled',
      labelNames: ['outcome'],
      registers,
    });
    this.searchDuration = new Histogram({
      name: 'search_mcp_search_duration_seconds',
      help: 'How long tool searches took',
      buckets: searchBuckets,
      registers,
    });
    this.httpRequests = new Counter({
      name: 'search_mcp_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status code',
      labelNames: ['route', 'status'],
      registers,
    });
    if (readServers) {
      new Gauge({
        name: 'search_mcp_backend_state',
        help: 'Each backend server state: 1 for the state the server is in, 0 for the others',
        labelNames: ['server', 'state'],
        registers,
        collect() {
          // Servers removed by a reload disappear from the output rather than keep their last state.
          this.reset();
          for (const status of readServers()) {
            for (const state of serverStates) this.set({ server: status.id, state }, status.state === state ? 1 : 0);
          }
        },
      });
      new Counter({
        name: 'search_mcp_backend_restarts_total',
        help: 'Restarts of each backend server after crashes since it was started on purpose',
        labelNames: ['server'],
        registers,
        collect() {
          this.reset();
          for (const status of readServers()) this.inc({ server: status.id }, status.restarts);
        },
      });
    }
    new Gauge({
      name: 'search_mcp_sessions',
      help: 'Open MCP sessions (Streamable HTTP, 2025 revisions)',
      registers,
      collect() {
        this.set(sources.sessions());
      },
    });
  }

  /** Counts one audit record: a tool call, a search, or nothing (reads, server actions). */
  observe(record: AuditRecord): void {
    const seconds = record.durationMs / 1000;
    if (record.event === 'tool_discovery' || (record.event === 'rest' && record.queries !== undefined)) {
      const outcome = record.outcome === 'ok' && record.resultCount === 0 ? 'no_results' : record.outcome;
      this.searches.inc({ outcome });
      this.searchDuration.observe(seconds);
      return;
    }
    // The call goes on in the client's retry, which is audited (and counted) as its own record.
    if (record.toolKey === undefined || record.outcome === 'input_required') return;
    // A made-up tool key (the catalog's TOOL_NOT_FOUND, REST's 404) must not take a place under the label caps.
    if (record.errorCode !== undefined && unknownToolCodes.has(record.errorCode)) return;
    const parsed = parseToolKey(record.toolKey);
    const server = this.servers.labelFor(record.serverId ?? parsed?.serverId ?? '');
    const toolName = parsed?.toolName ?? record.toolKey;
    const tool =
      this.tools.labelFor(`${server}\n${toolName}`) === otherLabelValue || server === otherLabelValue
        ? otherLabelValue
        : toolName;
    this.toolCalls.inc({ server, tool, outcome: record.outcome });
    this.toolCallDuration.observe({ server, tool }, seconds);
    const tools = this.seriesByServer.get(server) ?? new Map<string, Set<string>>();
    this.seriesByServer.set(server, tools);
    const outcomes = tools.get(tool) ?? new Set<string>();
    tools.set(tool, outcomes);
    outcomes.add(record.outcome);
  }

  /** Drops the call series of servers a reload removed, and frees their places under the label caps. */
  private forgetRemovedServers(statuses: readonly ServerStatus[]): void {
    const configured = new Set(statuses.map((status) => status.id));
    for (const [server, tools] of this.seriesByServer) {
      if (configured.has(server) || server === otherLabelValue) continue;
      for (const [tool, outcomes] of tools) {
        for (const outcome of outcomes) this.toolCalls.remove({ server, tool, outcome });
        this.toolCallDuration.remove({ server, tool });
        this.tools.forget(`${server}\n${tool}`);
      }
      this.servers.forget(server);
      this.seriesByServer.delete(server);
    }
  }

  /** Counts one HTTP answer; `route` is the route's pattern (bounded), never the path asked for. */
  countHttpRequest(route: string, status: number): void {
    this.httpRequests.inc({ route, status: String(status) });
  }
}
