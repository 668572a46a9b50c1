import {
  AuthenticationError,
  AuthorizationError,
  SearchProviderError,
  ToolDisabledError,
  ToolNotFoundError,
  ValidationError,
  isResolvedConfig,
  parseConfig,
  parseToolKey,
  silentLogger,
  type Logger,
  type ResolvedConfig,
  type SearchMcpConfigInput,
  type SearchResult,
  type ServerConfig,
  type ToolCallResult,
  type ToolInfo,
  type ToolProgress,
  type ToolSource,
} from '@search-mcp/shared';
import { ArgumentValidator } from './argument-validator.js';
import { Bm25SearchProvider } from './bm25-search-provider.js';
import { CloudSearchProvider } from './cloud-search-provider.js';
import { FallbackSearchProvider, type FallbackAnswer } from './fallback-search-provider.js';
import { LruMap } from './lru-map.js';
import { matchesSearchFilter, searchFilterKey, type CatalogSearchFilter } from './search-filter.js';
import type { SearchProvider } from './search-provider.js';
import { closestToolKeys } from './tool-key-suggestions.js';
import { ToolExecutor, type ToolExecutorOptions } from './tool-executor.js';
import { ToolRegistry } from './tool-registry.js';

/** Who is asking: the project and token of the request (CONTRACT §5). Stdio callers usually have neither. */
export interface Caller {
  projectId?: string;
  /** The id (not the secret) of the token that authenticated the request. */
  tokenId?: string;
}

export type CatalogSearchStrategy = 'bm25' | 'cloud' | 'off';

export interface CatalogSearchRequest {
  /** One phrasing, or several phrasings / sub-steps of one task. */
  query: string | readonly string[];
  context?: string;
  /** 1–50; default `search.maxResults` of the config. */
  maxResults?: number;
  /** Searches only the visible tools that pass it (narrowed before ranking, so none is crowded out). */
  filter?: CatalogSearchFilter;
  signal?: AbortSignal;
}

/** A search result with the tool it names, so callers can add schemas without a second lookup. */
export interface CatalogSearchHit extends SearchResult {
  title?: string;
  tool: ToolInfo;
}

export interface CatalogSearchResponse {
  results: CatalogSearchHit[];
  /** The strategy the request resolved to. */
  strategy: CatalogSearchStrategy;
  /** The provider that answered (`bm25`, `cloud`, a custom id); absent when the strategy is `off`. */
  providerId?: string;
  /** Why the cloud provider was not used, after a fallback. */
  fallbackReason?: string;
  /** How many tools the caller could see (searched over). */
  toolCount: number;
}

export interface CatalogListFilter {
  server?: string;
  category?: string;
  tag?: string;
}

export interface CatalogExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  /** Per-call timeout passed to the source (each progress restarts it); default the server's `timeoutMs`. */
  timeoutMs?: number;
  /** `_meta` to forward to the backend. */
  meta?: Record<string, unknown>;
}

export interface ToolCatalogOptions {
  /** Where tools come from: an `McpClientManager`, `ToolRegistry`s, or anything implementing `ToolSource`. */
  sources: readonly ToolSource[];
  /** Search settings, projects, tokens, server permissions. Default: BM25, 10 results, no projects or tokens. */
  config?: ResolvedConfig | SearchMcpConfigInput;
  /** The local ranker (strategy `bm25`, and the fallback of `cloud`). Default `new Bm25SearchProvider()`. */
  searchProvider?: SearchProvider;
  /** The ranker of strategy `cloud`. Default: a `CloudSearchProvider` from `search.cloud`, when configured. */
  cloudProvider?: SearchProvider;
  executor?: ToolExecutorOptions;
  logger?: Logger;
  /**
   * The tokens a caller's `tokenId` may name, with the projects each may use. Default `auth.tokens` of the config;
   * an HTTP app that generated its own token passes the list it authenticates against. No secrets are needed here.
   */
  tokens?: ReadonlyArray<{ id: string; projects?: readonly string[] }>;
}

/** The tools one project sees, and the same narrowed by the search filters it used lately. */
interface ProjectTools {
  tools: ToolInfo[];
  byFilter: LruMap<string, ToolInfo[]>;
}

interface VisibleCache {
  revisionKey: string;
  all: ToolInfo[];
  byKey: Map<string, ToolInfo>;
  byProject: LruMap<string, ProjectTools>;
}

/** What `resolve` found for a key: a listed tool, a server that is down, a blocked tool, or nothing. */
type Resolution =
  | { kind: 'tool'; tool: ToolInfo }
  | { kind: 'not-connected'; serverId: string; toolName: string }
  | { kind: 'disabled'; toolKey: string; reason: string }
  | { kind: 'not-found' };

const noProject = '\u0000none';
/** Project ids are names from a config; a longer one is a caller filling the caches. */
const maxProjectIdLength = 256;
/** Projects whose tool arrays are kept: the configured ones and "no project" are what callers use. */
const projectCacheSize = 64;
/** Search filters whose narrowed arrays are kept per project (so the ranker's index cache keeps hitting). */
const filterCacheSize = 16;
/** A filter key longer than this is not cached (it would make the cache large); its search still works. */
const maxCachedFilterKeyLength = 1024;

/**
 * The tool catalog (seed 004's ToolCatalogService): collects the tools a caller may see from its sources at request
 * time, searches them with the strategy of the caller's project, and executes them with visibility enforced again,
 * arguments validated, and retries of retryable failures.
 *
 * Visibility (CONTRACT §4–5): the server is enabled, the tool is not `false` in `toolPermissions`, the server is
 * connected, and the caller's project (and token) allow it. With project P a caller sees servers whose `projects`
 * contains P; with none, servers without `projects`.
 */
export class ToolCatalog {
  readonly config: ResolvedConfig;
  private readonly sources: readonly ToolSource[];
  private readonly localProvider: SearchProvider;
  private readonly cloudProvider?: SearchProvider;
  private readonly validator: ArgumentValidator;
  private readonly executor: ToolExecutor;
  private readonly logger: Logger;
  private readonly tokens: ReadonlyArray<{ id: string; projects?: readonly string[] }>;
  private cache?: VisibleCache;

  constructor(options: ToolCatalogOptions) {
    this.sources = options.sources;
    this.config = options.config
      ? isResolvedConfig(options.config)
        ? options.config
        : parseConfig(options.config)
      : parseConfig({ mcpServers: {} });
    this.logger = options.logger ?? silentLogger;
    this.tokens = options.tokens ?? this.config.auth.tokens;
    this.localProvider = options.searchProvider ?? new Bm25SearchProvider();
    const cloud = this.config.search.cloud;
    this.cloudProvider =
      options.cloudProvider ??
      (cloud
        ? new CloudSearchProvider({
            url: cloud.url,
            timeoutMs: cloud.timeoutMs,
            logger: this.logger,
            ...(cloud.apiKey !== undefined ? { apiKey: cloud.apiKey } : {}),
          })
        : undefined);
    this.validator = new ArgumentValidator({ logger: this.logger });
    this.executor = new ToolExecutor(options.executor);
  }

  /** The strategy for the caller: its project's `optimization` when the project is configured, else `search.strategy`. */
  strategyFor(caller: Caller = {}): CatalogSearchStrategy {
    const project = this.projectConfig(caller.projectId);
    if (project) return project.optimization ?? 'off';
    return this.config.search.strategy;
  }

  /** The tools the caller may see, sorted as the sources list them. The same array is returned until tools change. */
  async visibleTools(caller: Caller = {}): Promise<readonly ToolInfo[]> {
    return (await this.projectTools(caller)).tools;
  }

  async search(request: CatalogSearchRequest, caller: Caller = {}): Promise<CatalogSearchResponse> {
    const tools = await this.filteredTools(caller, request.filter);
    const strategy = this.strategyFor(caller);
    if (strategy === 'off') return { results: [], strategy, toolCount: tools.length };
    const queries = (typeof request.query === 'string' ? [request.query] : [...request.query]).filter(
      (query): query is string => typeof query === 'string' && query.trim() !== '',
    );
    if (queries.length === 0 || tools.length === 0) {
      return { results: [], strategy, providerId: this.localProvider.id, toolCount: tools.length };
    }
    const maxResults = clamp(Math.trunc(request.maxResults ?? this.config.search.maxResults), 1, 50);
    let answer: FallbackAnswer = { providerId: this.localProvider.id };
    let provider = this.localProvider;
    if (strategy === 'cloud') {
      if (this.cloudProvider) {
        provider = new FallbackSearchProvider(this.cloudProvider, this.localProvider, {
          logger: this.logger,
          onAnswer: (received) => {
            answer = received;
          },
        });
      } else {
        answer = { providerId: this.localProvider.id, fallbackReason: 'no search.cloud is configured' };
      }
    }
    let results: SearchResult[];
    try {
      results = await provider.search({
        queries,
        tools,
        maxResults,
        ...(request.context ? { context: request.context } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      if (SearchProviderError.isInstance(error)) throw error;
      throw new SearchProviderError({
        providerId: provider.id,
        failure: 'provider',
        message: `search provider '${provider.id}' failed: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
    const cache = await this.currentCache();
    const visibleKeys = new Set(tools.map((tool) => tool.toolKey));
    const hits: CatalogSearchHit[] = [];
    for (const result of results) {
      // A custom ranker must not widen what the caller sees.
      const tool = visibleKeys.has(result.toolKey) ? cache.byKey.get(result.toolKey) : undefined;
      if (!tool || hits.some((hit) => hit.toolKey === tool.toolKey)) continue;
      const hit: CatalogSearchHit = {
        toolKey: tool.toolKey,
        toolName: tool.toolName,
        serverName: tool.serverName,
        description: tool.description,
        relevance: clamp(Number.isFinite(result.relevance) ? result.relevance : 0, 0, 1),
        tool,
      };
      if (tool.title !== undefined) hit.title = tool.title;
      if (result.explanation !== undefined) hit.explanation = result.explanation;
      hits.push(hit);
      if (hits.length >= maxResults) break;
    }
    this.logger.debug('search', {
      strategy,
      provider: answer.providerId,
      queries: queries.length,
      results: hits.length,
    });
    return {
      results: hits,
      strategy,
      providerId: answer.providerId,
      toolCount: tools.length,
      ...(answer.fallbackReason !== undefined ? { fallbackReason: answer.fallbackReason } : {}),
    };
  }

  /**
   * One visible tool by key (`server:tool`, `server.tool` or `server__tool`). A tool the caller cannot see, blocked
   * ones included, is not found (CONTRACT §6: 404); only `execute` says a tool is disabled.
   * @throws ToolNotFoundError (with the closest keys), AuthorizationError
   */
  async get(toolKey: string, caller: Caller = {}): Promise<ToolInfo> {
    const resolved = await this.resolve(toolKey, caller);
    if (resolved.kind === 'tool') return resolved.tool;
    throw await this.notFound(
      toolKey,
      caller,
      resolved.kind === 'not-connected' ? ` (MCP server '${resolved.serverId}' is not connected)` : '',
    );
  }

  /** The visible tools matching a filter, sorted by key. */
  async list(filter: CatalogListFilter = {}, caller: Caller = {}): Promise<ToolInfo[]> {
    const tools = await this.visibleTools(caller);
    return tools
      .filter(
        (tool) =>
          (filter.server === undefined || tool.serverName === filter.server) &&
          (filter.category === undefined || tool.category === filter.category) &&
          (filter.tag === undefined || (tool.tags ?? []).includes(filter.tag)),
      )
      .sort((a, b) => a.toolKey.localeCompare(b.toolKey));
  }

  /**
   * Runs a tool: visibility is enforced again, arguments are validated against its `inputSchema` (every problem at
   * once), and retryable failures (a server reconnecting) are retried. The result is the backend's, unchanged.
   * @throws ToolNotFoundError, ToolDisabledError, AuthorizationError, ValidationError, ServerNotRunningError,
   * BackendError, TimeoutError
   */
  async execute(
    toolKey: string,
    args: Record<string, unknown> | undefined,
    caller: Caller = {},
    options: CatalogExecuteOptions = {},
  ): Promise<ToolCallResult> {
    const resolved = await this.resolve(toolKey, caller);
    const argumentsObject = args ?? {};
    let serverId: string;
    let toolName: string;
    if (resolved.kind === 'tool') {
      this.validator.validate(resolved.tool.toolKey, resolved.tool.inputSchema, argumentsObject);
      serverId = resolved.tool.serverName;
      toolName = resolved.tool.toolName;
    } else if (resolved.kind === 'not-connected') {
      // A configured server the caller may use, not connected now: the source says so (and reconnects it).
      serverId = resolved.serverId;
      toolName = resolved.toolName;
    } else if (resolved.kind === 'disabled') {
      throw new ToolDisabledError({ toolName: resolved.toolKey, reason: resolved.reason });
    } else {
      throw await this.notFound(toolKey, caller, '');
    }
    const source = this.sourceFor(serverId);
    if (!source) throw await this.notFound(toolKey, caller, '');
    return this.executor.execute(
      (signal) =>
        source.callTool(serverId, toolName, argumentsObject, {
          signal,
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.meta ? { meta: options.meta } : {}),
        }),
      options.signal ? { signal: options.signal } : {},
    );
  }

  /**
   * Finds the tool a key names, applying every visibility rule: the tool when it is listed, the server and tool name
   * when the server is configured and allowed but not running, why it is blocked when the caller could otherwise see
   * it, or nothing.
   */
  private async resolve(toolKey: string, caller: Caller): Promise<Resolution> {
    const tools = await this.visibleTools(caller);
    const parsed = typeof toolKey === 'string' ? parseToolKey(toolKey.trim()) : undefined;
    if (!parsed) return { kind: 'not-found' };
    const { serverId, toolName } = parsed;
    const key = `${serverId}:${toolName}`;
    const server = this.serverConfig(serverId);
    // Not the caller's server: indistinguishable from one that does not exist.
    if (server && !this.projectAllows(server.projects, caller.projectId)) return { kind: 'not-found' };
    if (server && !server.enabled)
      return { kind: 'disabled', toolKey: key, reason: `MCP server '${serverId}' is disabled in the config` };
    if (server && Object.hasOwn(server.toolPermissions, toolName) && server.toolPermissions[toolName] === false) {
      return { kind: 'disabled', toolKey: key, reason: 'toolPermissions' };
    }
    const candidate = (await this.currentCache()).byKey.get(key);
    if (candidate && this.projectAllows(candidate.serverProjects, caller.projectId))
      return { kind: 'tool', tool: candidate };
    const source = this.sourceFor(serverId);
    if (
      source instanceof ToolRegistry &&
      source.get(toolName)?.enabled === false &&
      this.projectAllows(source.projects, caller.projectId)
    ) {
      return { kind: 'disabled', toolKey: key, reason: 'disabled in the registry' };
    }
    // Only a configured backend (its project was checked above) can be "not connected"; anything else the caller
    // cannot see is simply not found.
    if (!server || !source) return { kind: 'not-found' };
    // A running server answers only for the tools it lists: one whose tools are all hidden or malformed gets nothing.
    const state = source.serverState?.(serverId);
    const running = state !== undefined ? state === 'running' : tools.some((entry) => entry.serverName === serverId);
    return running ? { kind: 'not-found' } : { kind: 'not-connected', serverId, toolName };
  }

  private async notFound(requestedKey: string, caller: Caller, detail: string): Promise<ToolNotFoundError> {
    // Callers from JavaScript or JSON may pass anything as a key.
    const toolKey = String(requestedKey);
    const tools = await this.visibleTools(caller);
    const suggestions = closestToolKeys(
      toolKey,
      tools.map((tool) => tool.toolKey),
    );
    const hint = suggestions.length > 0 ? `. Did you mean: ${suggestions.join(', ')}?` : '';
    return new ToolNotFoundError({
      toolName: toolKey,
      suggestions,
      message: `Tool not found: ${toolKey}${detail}${hint}`,
    });
  }

  private sourceFor(serverId: string): ToolSource | undefined {
    return this.sources.find((source) => source.serverIds.includes(serverId));
  }

  /** The caller's project tools, computed once per project while the tools stay the same. */
  private async projectTools(caller: Caller): Promise<ProjectTools> {
    this.authorize(caller);
    const cache = await this.currentCache();
    const projectKey = caller.projectId ?? noProject;
    let entry = cache.byProject.get(projectKey);
    if (!entry) {
      entry = {
        tools: cache.all.filter((tool) => this.projectAllows(tool.serverProjects, caller.projectId)),
        byFilter: new LruMap(filterCacheSize),
      };
      cache.byProject.set(projectKey, entry);
    }
    return entry;
  }

  /** The caller's tools narrowed by a search filter; the same array for the same filter while tools stay the same. */
  private async filteredTools(caller: Caller, filter: CatalogSearchFilter | undefined): Promise<readonly ToolInfo[]> {
    const filterKey = searchFilterKey(filter);
    const entry = await this.projectTools(caller);
    if (filterKey === undefined || filter === undefined) return entry.tools;
    const cached = entry.byFilter.get(filterKey);
    if (cached) return cached;
    const tools = entry.tools.filter((tool) => matchesSearchFilter(tool, filter));
    if (filterKey.length <= maxCachedFilterKeyLength) entry.byFilter.set(filterKey, tools);
    return tools;
  }

  private authorize(caller: Caller): void {
    if (typeof caller.projectId === 'string' && caller.projectId.length > maxProjectIdLength) {
      throw new ValidationError({
        issues: [{ path: 'projectId', message: `must be at most ${maxProjectIdLength} characters` }],
        message: `Invalid projectId: must be at most ${maxProjectIdLength} characters`,
      });
    }
    if (caller.tokenId === undefined) return;
    const token = this.tokens.find((entry) => entry.id === caller.tokenId);
    if (!token) throw new AuthenticationError({ message: `Unknown token id '${caller.tokenId}'` });
    if (token.projects && (caller.projectId === undefined || !token.projects.includes(caller.projectId))) {
      const where = caller.projectId === undefined ? 'without a project' : `for project '${caller.projectId}'`;
      throw new AuthorizationError({
        message: `Token '${token.id}' may not be used ${where}; it is limited to: ${token.projects.join(', ')}`,
      });
    }
  }

  /** The config of a server id a caller named; own entries only (`constructor` is not a server). */
  private serverConfig(serverId: string): ServerConfig | undefined {
    return Object.hasOwn(this.config.mcpServers, serverId) ? this.config.mcpServers[serverId] : undefined;
  }

  /** The config of a project id a caller named; own entries only (`toString` is not a project). */
  private projectConfig(projectId: string | undefined): ResolvedConfig['projects'][string] | undefined {
    return projectId !== undefined && Object.hasOwn(this.config.projects, projectId)
      ? this.config.projects[projectId]
      : undefined;
  }

  private projectAllows(serverProjects: readonly string[] | undefined, projectId: string | undefined): boolean {
    if (projectId === undefined) return serverProjects === undefined;
    return serverProjects !== undefined && serverProjects.includes(projectId);
  }

  /** Collects every source's tools once per change of any source's revision. */
  private async currentCache(): Promise<VisibleCache> {
    const revisionKey = this.sources.map((source) => source.toolsRevision).join(',');
    if (this.cache?.revisionKey === revisionKey) return this.cache;
    const lists = await Promise.all(this.sources.map((source) => source.listAllTools()));
    const byKey = new Map<string, ToolInfo>();
    const all: ToolInfo[] = [];
    for (const tool of lists.flat()) {
      if (byKey.has(tool.toolKey)) {
        this.logger.warn('two sources list the same tool key; the first one is used', { toolKey: tool.toolKey });
        continue;
      }
      byKey.set(tool.toolKey, tool);
      all.push(tool);
    }
    // A source may have changed while listing; the next request lists again.
    const cache: VisibleCache = { revisionKey, all, byKey, byProject: new LruMap(projectCacheSize) };
    this.cache = cache;
    return cache;
  }
}

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, Number.isNaN(value) ? minimum : value));
}
