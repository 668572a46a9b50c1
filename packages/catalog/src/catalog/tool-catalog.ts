import {
  isResolvedConfig,
  parseConfig,
  sameJsonValue,
  silentLogger,
  ToolDisabledError,
  type Logger,
  type ResolvedConfig,
  type SearchMcpConfigInput,
  type ToolCallOptions,
  type ToolCallResult,
  type ToolInfo,
} from '@search-mcp/shared';
import { ArgumentValidator, loadArgumentValidation } from '../execution/argument-validator.js';
import { ToolExecutor, type ToolExecutorOptions } from '../execution/tool-executor.js';
import { RateLimiter, type RateLimiterOptions } from '../limits/rate-limiter.js';
import { Bm25SearchProvider } from '../providers/bm25-search-provider.js';
import { CloudSearchProvider } from '../providers/cloud-search-provider.js';
import type { SearchProvider } from '../search-provider.js';
import { isWholeServerAllowed } from './caller-access.js';
import { authorizeCaller, type CatalogToken } from './caller-authorization.js';
import { CatalogSearch } from './catalog-search.js';
import type { CatalogToolSource } from './catalog-tool-source.js';
import type {
  Caller,
  CatalogExecuteOptions,
  CatalogListFilter,
  CatalogSearchRequest,
  CatalogSearchResponse,
  CatalogSearchStrategy,
} from './catalog-types.js';
import { CatalogOverrides, namingChanged, renamedPinWarnings, sharedNameWarnings } from './catalog-overrides.js';
import { configuredProject } from './config-lookup.js';
import { isServerVisibleToProject } from './project-visibility.js';
import { resolveToolKey, sourceFor, toolNotFound, type Resolution } from './tool-resolution.js';
import { type ProjectTools, VisibleToolsCache } from './visible-tools-cache.js';
import type { DescriptionScanHook } from '../trust/scanned-tool.js';
import { type QuarantineEntry, type ScanWarning, ToolQuarantine } from '../trust/tool-quarantine.js';
import type { ApproveOptions, ToolPinStore } from '../trust/tool-pin-store.js';

export interface ToolCatalogOptions {
  /** Where tools come from: an `McpClientManager`, `ToolRegistry`s, or anything implementing `ToolSource`. */
  sources: readonly CatalogToolSource[];
  /** Search settings, projects, tokens, server permissions. Default: BM25, 10 results, no projects or tokens. */
  config?: ResolvedConfig | SearchMcpConfigInput;
  /** The local ranker (strategy `bm25`, and the fallback of `cloud`). Default `new Bm25SearchProvider()`. */
  searchProvider?: SearchProvider;
  /** The ranker of strategy `cloud`. Default: a `CloudSearchProvider` from `search.cloud`, when configured. */
  cloudProvider?: SearchProvider;
  /**
   * The ranker of strategy `hybrid` (e.g. `HybridSearchProvider` of `@search-mcp/embeddings`). Without one, `hybrid`
   * answers with the local ranker and says so in `fallbackReason`.
   */
  hybridProvider?: SearchProvider;
  /** The ranker of strategy `llm` (e.g. `LlmSearchProvider` of `@search-mcp/openai`); the same fallback. */
  llmProvider?: SearchProvider;
  executor?: ToolExecutorOptions;
  logger?: Logger;
  /**
   * The tokens a caller's `tokenId` may name, with the projects each may use. Default `auth.tokens` of the config;
   * an HTTP app that generated its own token passes the list it authenticates against. No secrets are needed here.
   */
  tokens?: readonly CatalogToken[];
  /**
   * Where tool definitions are pinned (docs/trust.md, "Pinning and quarantine"). Given: a tool whose definition differs
   * from its pin is held back until approved. Absent: nothing is pinned.
   */
  pinStore?: ToolPinStore;
  /** Cleans and judges each listed tool before it is pinned (docs/trust.md, "Description scanning"). */
  descriptionScan?: DescriptionScanHook | false;
  /** The rate limiter's clock and bound (tests); its limits are `security.rateLimits` of the config. */
  rateLimiter?: Omit<RateLimiterOptions, 'limits'>;
}

/**
 * The tool catalog (packages/catalog/README.md, "ToolCatalog"): collects the tools a caller may see from its sources at
 * request time, searches them with the strategy of the caller's project, and executes them with visibility enforced
 * again, arguments validated, and retries of retryable failures.
 *
 * Visibility (docs/projects-and-tokens.md, "Visibility"): the server is enabled, the tool is not `false` in
 * `toolPermissions`, the server is connected, and the caller's project (and token) allow it
 * (`isServerVisibleToProject`).
 */
export class ToolCatalog {
  private currentConfig: ResolvedConfig;
  private readonly sources: readonly CatalogToolSource[];
  private readonly tools: VisibleToolsCache;
  private readonly overrides: CatalogOverrides;
  private readonly searcher: CatalogSearch;
  private readonly validator: ArgumentValidator;
  private readonly executor: ToolExecutor;
  private readonly limiter: RateLimiter;
  private tokens: readonly CatalogToken[];
  /** True when the host handed in its own tokens: a reload does not replace them. */
  private readonly hostTokens: boolean;
  private readonly quarantine: ToolQuarantine | undefined;

  constructor(options: ToolCatalogOptions) {
    this.sources = options.sources;
    this.currentConfig = options.config
      ? isResolvedConfig(options.config)
        ? options.config
        : parseConfig(options.config)
      : parseConfig({ mcpServers: {} });
    const logger = options.logger ?? silentLogger;
    this.overrides = new CatalogOverrides(logger);
    const catalog = this;
    this.hostTokens = options.tokens !== undefined;
    this.tokens = options.tokens ?? this.config.auth.tokens;
    this.quarantine = options.pinStore
      ? new ToolQuarantine(options.pinStore, logger, options.descriptionScan)
      : undefined;
    // Pins are checked on the backends' own definitions, before overrides rename or reword them.
    this.tools = new VisibleToolsCache(this.sources, logger, (tools) =>
      this.overrides.apply(this.quarantine ? this.quarantine.filter(tools, this.config) : tools, this.config),
    );
    // An approval (here or by the CLI in another process) changes what is listed: list again, tell MCP clients.
    options.pinStore?.onChange(() => {
      this.tools.invalidate();
      this.overrides.changed();
    });
    const cloud = this.config.search.cloud;
    const cloudProvider =
      options.cloudProvider ??
      (cloud
        ? new CloudSearchProvider({
            url: cloud.url,
            timeoutMs: cloud.timeoutMs,
            logger,
            ...(cloud.apiKey !== undefined ? { apiKey: cloud.apiKey } : {}),
          })
        : undefined);
    this.searcher = new CatalogSearch({
      localProvider: options.searchProvider ?? new Bm25SearchProvider(),
      // Read at each search, so a reload's `search.maxResults` applies at once.
      get defaultMaxResults() {
        return catalog.config.search.maxResults;
      },
      logger,
      providers: {
        ...(cloudProvider ? { cloud: cloudProvider } : {}),
        ...(options.hybridProvider ? { hybrid: options.hybridProvider } : {}),
        ...(options.llmProvider ? { llm: options.llmProvider } : {}),
      },
    });
    this.validator = new ArgumentValidator({ logger });
    this.executor = new ToolExecutor(options.executor);
    this.limiter = new RateLimiter({ ...options.rateLimiter, limits: this.config.security.rateLimits });
  }

  /** Search settings, projects, tokens and server entries in use: the latest given to `reconfigure`. */
  get config(): ResolvedConfig {
    return this.currentConfig;
  }

  /**
   * Takes a new config live (hot reload): projects, `search.strategy`, `search.maxResults`, `auth.tokens` (unless the
   * host handed in its own `tokens`), `security.rateLimits` and each server's `enabled`, `projects` and
   * `toolPermissions` apply from the next request on. Returns the settings that changed but stay as they were until a restart: `search.cloud` (its ranker
   * is built once) and `auth` when the host's own tokens are in use.
   */
  reconfigure(config: ResolvedConfig | SearchMcpConfigInput): string[] {
    const next = isResolvedConfig(config) ? config : parseConfig(config);
    const previous = this.currentConfig;
    const notApplied: string[] = [];
    if (!sameJsonValue(previous.search.cloud, next.search.cloud)) notApplied.push('search.cloud');
    if (this.hostTokens && !sameJsonValue(previous.auth, next.auth)) notApplied.push('auth');
    this.currentConfig = next;
    if (!this.hostTokens) this.tokens = next.auth.tokens;
    this.limiter.reconfigure(next.security.rateLimits);
    // Overrides are applied at listing: the next request lists again with the new ones.
    this.tools.invalidate();
    if (namingChanged(previous, next)) this.overrides.changed();
    return notApplied;
  }

  /**
   * Calls `listener` when a reconfigure changes how tools are named or shown (`exposure.names`, a server's `tools`
   * overrides) without any server restarting, so an MCP server can tell its clients their lists changed. Returns
   * the function that stops it.
   */
  onNamingChanged(listener: () => void): () => void {
    return this.overrides.onChanged(listener);
  }

  /**
   * What deserves a look about tool names, each a sentence starting with its config path: renames not applied (the
   * name was taken), overrides of tools no server lists (every server's: this is for the operator, as `doctor`),
   * pinned keys that still use a renamed tool's old name, and with `exposure.names: "original"` the names several of the caller's servers share (listed as
   * `server__name`). Lists the tools when needed.
   */
  async namingWarnings(caller: Caller = {}): Promise<string[]> {
    const tools = await this.visibleTools(caller);
    return [...this.overrides.warnings, ...renamedPinWarnings(this.config), ...sharedNameWarnings(tools, this.config)];
  }

  /** The strategy for the caller: its project's `optimization` when the project is configured, else `search.strategy`. */
  strategyFor(caller: Caller = {}): CatalogSearchStrategy {
    const project = configuredProject(this.config, caller.projectId);
    if (project) return project.optimization ?? 'off';
    return this.config.search.strategy;
  }

  /** The tools the caller may see, sorted as the sources list them. The same array is returned until tools change. */
  async visibleTools(caller: Caller = {}): Promise<readonly ToolInfo[]> {
    authorizeCaller(caller, this.tokens);
    const project = this.tools.project(caller.projectId, caller.access);
    return (project instanceof Promise ? await project : project).tools;
  }

  /**
   * The caller's visible tools at once (the same array `visibleTools` resolves with) when no source changed since
   * they were last listed, which is nearly every request; undefined when they must be listed again: then await
   * `visibleTools`. For hot paths that should not await per request.
   * @throws AuthenticationError, AuthorizationError
   */
  visibleToolsNow(caller: Caller = {}): readonly ToolInfo[] | undefined {
    authorizeCaller(caller, this.tokens);
    return this.tools.projectIfFresh(caller.projectId, caller.access)?.tools;
  }

  /**
   * The configured MCP servers the caller may use now, in source order (config order for a manager): running (per the
   * source's `serverState`), enabled, and allowed to the caller's project (docs/projects-and-tokens.md, "Visibility").
   * Resources, prompts and completions are visible by this rule, the same one that governs tools; a server all of whose
   * tools are held by the quarantine is left out. In-process registries are left out: they offer tools only.
   * @throws AuthenticationError, AuthorizationError
   */
  visibleServerIds(caller: Caller = {}): string[] {
    authorizeCaller(caller, this.tokens);
    const ids: string[] = [];
    for (const source of this.sources) {
      for (const id of source.serverIds) {
        const server = Object.hasOwn(this.config.mcpServers, id) ? this.config.mcpServers[id] : undefined;
        if (!server?.enabled) continue;
        if (!isServerVisibleToProject(server.projects, caller.projectId)) continue;
        // Resources, prompts and completions reach past the tools: the caller must be allowed the whole server.
        if (!isWholeServerAllowed(caller.access, caller.projectId, id)) continue;
        const state = source.serverState?.(id);
        if (state !== undefined && state !== 'running') continue;
        // A server all of whose tools are held is held whole (docs/trust.md, "Pinning and quarantine").
        if (this.quarantine?.serverHeld(id, this.config)) continue;
        if (!ids.includes(id)) ids.push(id);
      }
    }
    return ids;
  }

  /** Ranks the caller's visible tools (narrowed by `filter`) with its project's strategy. */
  async search(request: CatalogSearchRequest, caller: Caller = {}): Promise<CatalogSearchResponse> {
    authorizeCaller(caller, this.tokens);
    const tools = await this.tools.forFilter(caller.projectId, request.filter, caller.access);
    return this.searcher.search(request, this.strategyFor(caller), tools);
  }

  /**
   * Ranks tools the caller hands in (not the catalog's own: `POST /catalog/search`, where one instance ranks for
   * another) with the caller's strategy, its providers and their fallback to BM25, exactly as `search` does.
   */
  async rank(
    request: Omit<CatalogSearchRequest, 'filter'>,
    tools: readonly ToolInfo[],
    caller: Caller = {},
  ): Promise<CatalogSearchResponse> {
    authorizeCaller(caller, this.tokens);
    return this.searcher.search(request, this.strategyFor(caller), tools);
  }

  /**
   * One visible tool by key (`server:tool`, `server.tool` or `server__tool`). A tool the caller cannot see, blocked
   * ones included, is not found (REST: 404, apps/http-server/README.md); only `execute` says a tool is disabled.
   * @throws ToolNotFoundError (with the closest keys), AuthorizationError
   */
  async get(toolKey: string, caller: Caller = {}): Promise<ToolInfo> {
    const resolution = this.resolve(toolKey, caller);
    const { resolved, visible } = resolution instanceof Promise ? await resolution : resolution;
    if (resolved.kind === 'tool') return resolved.tool;
    const detail = resolved.kind === 'not-connected' ? ` (MCP server '${resolved.serverId}' is not connected)` : '';
    throw toolNotFound(toolKey, visible, detail);
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
   * once), and retryable failures (a server reconnecting) are retried. The result is the backend's, unchanged: from a
   * 2026-07-28 backend possibly `input_required` (a value, not a failure; retry with `options.inputResponses`).
   * Calls over `security.rateLimits` are refused before they reach the backend (docs/trust.md, "Rate limits").
   * @throws ToolNotFoundError, ToolDisabledError, AuthorizationError, ValidationError, RateLimitError,
   * ServerNotRunningError, BackendError, TimeoutError
   */
  async execute(
    toolKey: string,
    args: Record<string, unknown> | undefined,
    caller: Caller = {},
    options: CatalogExecuteOptions = {},
  ): Promise<ToolCallResult> {
    // No await while the tools are unchanged (nearly every call): see `resolve`.
    const resolution = this.resolve(toolKey, caller);
    const { resolved, visible } = resolution instanceof Promise ? await resolution : resolution;
    const argumentsObject = args ?? {};
    let serverId: string;
    let toolName: string;
    if (resolved.kind === 'tool') {
      // ajv loads before the first validation (undefined, so no await, once it has).
      const validation = loadArgumentValidation();
      if (validation) await validation;
      this.validator.validate(resolved.tool.toolKey, resolved.tool.inputSchema, argumentsObject);
      serverId = resolved.tool.serverName;
      // A tool an override renamed is called under the backend's own name.
      toolName = resolved.tool.originalName ?? resolved.tool.toolName;
    } else if (resolved.kind === 'not-connected') {
      // A configured server the caller may use, not connected now: the source says so (and reconnects it).
      serverId = resolved.serverId;
      toolName = resolved.toolName;
    } else if (resolved.kind === 'disabled') {
      throw new ToolDisabledError({ toolName: resolved.toolKey, reason: resolved.reason });
    } else {
      throw toolNotFound(toolKey, visible, '');
    }
    // Whatever the resolution: a server not running lists nothing, so its held tools resolve as `not-connected`
    // and the call would start it and run the tool (docs/trust.md, "Pinning and quarantine").
    const held = this.quarantine?.heldInStore(serverId, toolName, this.config);
    if (held !== undefined) throw new ToolDisabledError({ toolName: String(toolKey).trim(), reason: held });
    const source = sourceFor(this.sources, serverId);
    if (!source) throw toolNotFound(toolKey, visible, '');
    // After validation (a malformed call costs no token) and outside the executor's retries (a refusal is final).
    this.limiter.take(caller, serverId, toolName);
    return this.executor.execute(
      (signal) => source.callTool(serverId, toolName, argumentsObject, sourceCallOptions(signal, options, caller)),
      options.signal ? { signal: options.signal } : {},
    );
  }

  /** The tools held back until approved (docs/trust.md, "Pinning and quarantine"); lists the tools when needed. */
  async quarantined(): Promise<QuarantineEntry[]> {
    if (!this.quarantine) return [];
    await this.tools.project(undefined);
    return this.quarantine.entries;
  }

  /** The tools kept although the description scanner flagged them (`security.onSuspicious: "warn"`). */
  async scanWarnings(): Promise<readonly ScanWarning[]> {
    if (!this.quarantine) return [];
    await this.tools.project(undefined);
    return this.quarantine.warnings;
  }

  /**
   * Pins what waits for `serverId` (one tool by its backend name, or all); resolves with the names approved. The
   * tools are listed again from the next request on. Pass `options.expected` (each shown tool's `QuarantineEntry.hash`)
   * so only what was reviewed is pinned: a definition that changed since rejects with `ApprovalChangedError`.
   */
  async approve(serverId: string, toolName?: string, options?: ApproveOptions): Promise<string[]> {
    if (!this.quarantine) return [];
    return this.quarantine.store.approve(serverId, toolName, options);
  }

  /** What a key names for the caller: at once while the tools are unchanged, else after the sources are listed. */
  private resolve(toolKey: unknown, caller: Caller): ResolvedKey | Promise<ResolvedKey> {
    authorizeCaller(caller, this.tokens);
    const project = this.tools.project(caller.projectId, caller.access);
    if (project instanceof Promise) return project.then((tools) => this.resolveIn(toolKey, caller, tools));
    return this.resolveIn(toolKey, caller, project);
  }

  private resolveIn(toolKey: unknown, caller: Caller, tools: ProjectTools): ResolvedKey {
    const scope = { config: this.config, sources: this.sources };
    const resolved = resolveToolKey(toolKey, caller, tools, scope);
    if (resolved.kind === 'not-found' && this.quarantine) {
      // A held tool is not listed; a caller who could use it learns why and how to approve it.
      const reason = this.quarantine.refusal(toolKey, caller, this.config);
      if (reason !== undefined) {
        return { resolved: { kind: 'disabled', toolKey: String(toolKey).trim(), reason }, visible: tools.tools };
      }
    }
    return { resolved, visible: tools.tools };
  }
}

/** What the source gets of a call's options: only what is set (filled in place: every forwarded call builds it). */
function sourceCallOptions(signal: AbortSignal, options: CatalogExecuteOptions, caller: Caller): ToolCallOptions {
  const call: ToolCallOptions = { signal };
  // A per-user server runs the call on a connection of this token's own (docs/oauth-in-front.md); without a token
  // (stdio, the CLI, an anonymous HTTP caller) on its shared connection.
  if (caller.tokenId !== undefined) call.subject = caller.tokenId;
  if (options.onProgress) call.onProgress = options.onProgress;
  if (options.timeoutMs !== undefined) call.timeoutMs = options.timeoutMs;
  if (options.meta) call.meta = options.meta;
  if (options.origin) call.origin = options.origin;
  if (options.task) call.task = options.task;
  if (options.inputResponses !== undefined) call.inputResponses = options.inputResponses;
  if (options.requestState !== undefined) call.requestState = options.requestState;
  return call;
}

interface ResolvedKey {
  resolved: Resolution;
  visible: readonly ToolInfo[];
}
