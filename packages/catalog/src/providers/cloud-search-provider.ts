import {
  configDefaults,
  errorMessage,
  SearchProviderError,
  silentLogger,
  type Logger,
  type SearchResult,
  type ToolInfo,
} from '@search-mcp/shared';
import type { SearchProvider, SearchProviderRequest } from '../search-provider.js';
import {
  cloudSearchResponseSchema,
  type CloudSearchRequest,
  type CloudSearchResult,
  type CloudSearchTool,
} from './cloud-search-contract.js';

/** The fetch the provider uses; undici's by default. Inject one for proxies or tests. */
export type CloudSearchFetch = (
  url: string,
  init: {
    method: 'POST';
    headers: Record<string, string>;
    body: string;
    signal: AbortSignal;
  },
) => Promise<{ status: number; ok: boolean; text(): Promise<string> }>;

export interface CloudSearchProviderOptions {
  /** Base URL of the search service; the request goes to `{url}/catalog/search`. */
  url: string;
  /** Sent as `Authorization: Bearer …`. Never logged. */
  apiKey?: string;
  /** Whole-request timeout. Default 5,000 ms. */
  timeoutMs?: number;
  /** Send each tool's `inputSchema` too (larger requests, more for the service to rank with). Default false. */
  includeInputSchema?: boolean;
  fetch?: CloudSearchFetch;
  logger?: Logger;
}

/**
 * Asks a remote search service (`POST /catalog/search`, docs/cloud-search.md; another Search MCP's HTTP app serves it)
 * to rank the tools. The answer is validated: keys that are not among the request's tools are dropped (a service must
 * not introduce tools the caller may not see), relevance is clamped to 0..1, names and descriptions are taken from the
 * local tools. Any failure throws `SearchProviderError`; wrap it in `FallbackSearchProvider` to fall back to BM25.
 */
export class CloudSearchProvider implements SearchProvider {
  readonly id = 'cloud';
  private readonly endpoint: string;
  private readonly options: CloudSearchProviderOptions;
  private readonly logger: Logger;

  constructor(options: CloudSearchProviderOptions) {
    this.options = options;
    this.endpoint = `${options.url.replace(/\/+$/, '')}/catalog/search`;
    this.logger = options.logger ?? silentLogger;
  }

  async search(request: SearchProviderRequest): Promise<SearchResult[]> {
    const queries = request.queries.filter((query) => query.trim() !== '');
    if (queries.length === 0 || request.tools.length === 0) return [];
    const timeoutMs = this.options.timeoutMs ?? configDefaults.cloudTimeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const wireRequest: CloudSearchRequest = {
      query: queries,
      ...(request.context ? { context: request.context } : {}),
      tools: request.tools.map((tool) => this.toRequestTool(tool)),
      maxResults: request.maxResults,
    };
    const body = JSON.stringify(wireRequest);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;

    let status: number;
    let text: string;
    try {
      const fetchImplementation = this.options.fetch ?? (await loadUndiciFetch());
      const response = await fetchImplementation(this.endpoint, { method: 'POST', headers, body, signal });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted) {
        throw new SearchProviderError({
          providerId: this.id,
          failure: 'cancelled',
          message: 'cloud search cancelled',
          cause: error,
        });
      }
      if (timeout.aborted) {
        throw new SearchProviderError({
          providerId: this.id,
          failure: 'timeout',
          message: `cloud search did not answer within ${timeoutMs} ms`,
          cause: error,
        });
      }
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'network',
        message: `cloud search unreachable: ${describe(error)}`,
        cause: error,
      });
    }
    if (status < 200 || status > 299) {
      const hint = status === 401 || status === 403 ? ' (check search.cloud.apiKey)' : '';
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'http',
        status,
        message: `cloud search answered HTTP ${status}${hint}`,
      });
    }
    let results: CloudSearchResult[];
    try {
      results = cloudSearchResponseSchema.parse(JSON.parse(text)).results;
    } catch (error) {
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'invalid-response',
        message: 'cloud search sent a response that is not { results: [...] }',
        cause: error,
      });
    }
    return this.toResults(results, request);
  }

  private toRequestTool(tool: ToolInfo): CloudSearchTool {
    const requestTool: CloudSearchTool = {
      toolKey: tool.toolKey,
      toolName: tool.toolName,
      serverName: tool.serverName,
    };
    if (tool.title) requestTool.title = tool.title;
    if (tool.description) requestTool.description = tool.description;
    if (this.options.includeInputSchema) requestTool.inputSchema = tool.inputSchema;
    return requestTool;
  }

  private toResults(results: readonly CloudSearchResult[], request: SearchProviderRequest): SearchResult[] {
    const byKey = new Map(request.tools.map((tool) => [tool.toolKey, tool]));
    const seen = new Set<string>();
    const accepted: SearchResult[] = [];
    let dropped = 0;
    for (const result of results) {
      const tool = byKey.get(result.toolKey);
      if (!tool || seen.has(result.toolKey)) {
        dropped += 1;
        continue;
      }
      seen.add(result.toolKey);
      const entry: SearchResult = {
        toolKey: tool.toolKey,
        toolName: tool.toolName,
        serverName: tool.serverName,
        relevance: Math.min(1, Math.max(0, result.relevance)),
      };
      if (tool.description) entry.description = tool.description;
      if (result.explanation) entry.explanation = result.explanation;
      accepted.push(entry);
    }
    if (dropped > 0) this.logger.warn('cloud search returned unknown or repeated tool keys; dropped them', { dropped });
    accepted.sort((a, b) => b.relevance - a.relevance);
    return accepted.slice(0, request.maxResults);
  }
}

// undici is loaded on the first cloud search: importing it costs ~100 ms of start-up that BM25-only setups never need.
let undiciFetch: Promise<CloudSearchFetch> | undefined;
function loadUndiciFetch(): Promise<CloudSearchFetch> {
  undiciFetch ??= import('undici').then((module) => module.fetch as unknown as CloudSearchFetch);
  return undiciFetch;
}

/** The error's message with the system error code of its cause (`fetch failed (ECONNREFUSED)`). */
function describe(error: unknown): string {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  const code = cause && typeof cause === 'object' ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? `${errorMessage(error)} (${code})` : errorMessage(error);
}
