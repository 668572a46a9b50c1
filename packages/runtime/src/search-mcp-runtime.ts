import type { ClientCapabilities, Implementation } from '@modelcontextprotocol/server';
import {
  Bm25SearchProvider,
  type SearchProvider,
  ToolCatalog,
  type ToolPinStore,
  type ToolRegistry,
} from '@search-mcp/catalog';
import { McpClientManager, type McpClientManagerOptions, type ToolListCache } from '@search-mcp/client-manager';
import { type ClusterStore, createClusterOAuthStore } from '@search-mcp/cluster';
import {
  type AuditSink,
  ClientSessions,
  createSearchMcpServer,
  ForwardingHub,
  PendingInputs,
  type SearchMcpServer,
  type SearchMcpServerOptions,
} from '@search-mcp/server';
import { type Logger, type ResolvedConfig, type ServerStatus, silentLogger } from '@search-mcp/shared';
import { type AuditFeed, createAuditFeed } from './audit/audit-feed.js';
import { createJsonlAuditSink } from './audit/jsonl-audit-sink.js';
import { createStrategyProviders, type StrategyProviders } from './search/strategy-providers.js';
import { openPinStore } from './trust/default-pin-store.js';
import { createReplicaFanOut, type ReplicaFanOut } from './reload/replica-fan-out.js';
import { openToolListCache } from './tool-lists/default-tool-list-cache.js';
import {
  createEraDetectingConnection,
  type ProtocolEra,
  type SearchMcpConnection,
} from './serving/era-detecting-connection.js';
import { UsageStatistics } from './usage/usage-statistics.js';

export interface SearchMcpRuntimeOptions {
  config: ResolvedConfig;
  logger?: Logger;
  /** Overrides `exposure.mode`. */
  mode?: 'meta' | 'proxy';
  /** The project of requests that name none (CLI `--project`). */
  projectId?: string;
  /** In-process tools to offer next to the backends. */
  registries?: readonly ToolRegistry[];
  /** A custom local ranker instead of BM25. */
  searchProvider?: SearchProvider;
  /** Default: a JSON-lines file at `audit.file` when configured. */
  audit?: AuditSink;
  /**
   * Whether usage statistics are kept across restarts in `audit.usageFile` (with an `audit.file`): read at start,
   * written every 30 s and at close. Default true; a one-shot command passes false, so it neither reads a long log
   * nor writes a snapshot (its audit lines are read by the next long-running start).
   */
  persistUsage?: boolean;
  serverInfo?: Implementation;
  manager?: Omit<McpClientManagerOptions, 'logger'>;
  /** The tokens requests may name (ids and projects); default `auth.tokens` of the config. */
  tokens?: ReadonlyArray<{ id: string; projects?: readonly string[] }>;
  /**
   * What backends are told the client can do (sampling, elicitation, roots), which decides what some backends offer.
   * `'first-client'` (one client, stdio): what the first client declares in `initialize`, within what Search MCP
   * forwards — start the backends with `startBackends()` so they connect once it is known. Default: everything
   * forwarded (many sessions, HTTP: each request is checked against the session that gets it).
   */
  backendClientCapabilities?: ClientCapabilities | 'first-client';
  /**
   * The HMAC-SHA256 key (at least 32 bytes) that seals the `requestState` of 2026-07-28 input rounds. Default: a
   * random key of this runtime's own, so only it accepts its states. Replicas behind one address that must accept
   * each other's retries pass the same key (a call parked for a 2025 backend's request still lives in one runtime).
   */
  requestStateKey?: Uint8Array;
  /**
   * Where tool definitions are pinned (docs/trust.md, "Pinning and quarantine"). Default: `pins.json` in the state
   * folder (`SEARCH_MCP_PINNING=off`: none); `false`: nothing is pinned or quarantined.
   */
  pinStore?: ToolPinStore | false;
  /**
   * Where each server's last tool list is kept, searched while the server is still starting (README, "Discovery
   * before the servers are up"). Default: `tool-lists.json` in the state folder (`SEARCH_MCP_TOOL_CACHE=off`: none);
   * `false`: nothing is kept.
   */
  toolListCache?: ToolListCache | false;
  /**
   * The state replicas share (docs/scale-out.md); the caller's to close. When it is `shared` (Redis): backend OAuth
   * credentials live in it (unless `manager.oauth.store` is given), usage statistics are summed over the replicas,
   * admin actions (`replicas`) reach every replica, and tasks are written through to it so any replica answers them.
   */
  clusterStore?: ClusterStore;
}

/** Everything an app runs: one client manager, one catalog, one audit log, and MCP servers made on demand. */
export interface SearchMcpRuntime {
  readonly config: ResolvedConfig;
  readonly mode: 'meta' | 'proxy';
  readonly manager: McpClientManager;
  readonly catalog: ToolCatalog;
  /**
   * Where every audit record goes: the configured sink (the JSON-lines file of `audit.file`), then whoever subscribes
   * (the HTTP app's activity stream, usage statistics, metrics), whether or not a file is configured.
   */
  readonly audit: AuditFeed;
  /**
   * Usage statistics fed by `audit` (docs/console.md, "Usage statistics"); kept across restarts in `audit.usageFile`
   * when the config has an `audit.file` (and no `audit` sink of the caller's own replaces it).
   */
  readonly usage: UsageStatistics;
  /** What every session shares to forward resources, prompts, completions, logging, tasks and reverse requests. */
  readonly hub: ForwardingHub;
  /**
   * The calls waiting for a 2026-07-28 client's `input_required` retry (a 2025 backend asked for input during them),
   * and the codec of our `requestState`: one registry per runtime, given to every server instance it builds, since a
   * retry may reach any of them. For health counts (`size`) and its `dropped` event.
   */
  readonly pendingInputs: PendingInputs;
  /** The rankers of `search.strategy` `hybrid` and `llm` this runtime built (empty when its config uses neither). */
  readonly strategyProviders: StrategyProviders;
  /**
   * Admin actions told to the other replicas and theirs applied here (docs/scale-out.md, "Admin actions on every
   * replica"); without a shared `clusterStore`, publishing does nothing.
   */
  readonly replicas: ReplicaFanOut;
  /**
   * Connects every enabled backend, once (later calls return the same promise). With `backendClientCapabilities:
   * 'first-client'` it waits for the first client's `initialize` (at most `waitForClientMs`, default 2,000 ms), so
   * backends are told what that client can really do; an `initialize` arriving earlier starts them at once.
   */
  startBackends(options?: { waitForClientMs?: number }): Promise<ServerStatus[]>;
  /**
   * A new MCP server instance over the shared manager and catalog, for a client of `era` (the serving entry's
   * factory context: `serveStdio`, `createMcpHandler`).
   */
  serverFactory(context: { era: ProtocolEra }, overrides?: Partial<SearchMcpServerOptions>): SearchMcpServer;
  /**
   * One client connection (stdio, an in-memory pair, a 2025 HTTP session) served in the era its client opens with:
   * 2025 revisions after `initialize`, 2026-07-28 without a handshake. `connect(transport)`, then `close()`.
   */
  createServer(overrides?: Partial<SearchMcpServerOptions>): SearchMcpConnection;
  /**
   * Stops every backend (ending their process trees) and flushes the audit log. Safe to call more than once (the
   * first call's options count). `promptly`: backends get 100 ms to exit by themselves instead of the shutdown grace
   * before SIGTERM (`McpClientManager.close`), for a one-shot command that has its answer.
   */
  close(options?: { promptly?: boolean }): Promise<void>;
}

/**
 * The composition root: wires the libraries the way both apps run them. Backends are spawned once per runtime and
 * shared by every session, never per session.
 */
export function createSearchMcpRuntime(options: SearchMcpRuntimeOptions): SearchMcpRuntime {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const sessions = new ClientSessions({
    logger: logger.child({ component: 'client-sessions' }),
    ...(options.backendClientCapabilities ? { backendCapabilities: options.backendClientCapabilities } : {}),
  });
  const toolLists = openToolListCache(options.toolListCache, logger.child({ component: 'tool-lists' }));
  const sharedStore = options.clusterStore?.shared ? options.clusterStore : undefined;
  const manager = new McpClientManager(config, {
    reverseRequests: sessions,
    ...(toolLists.cache ? { toolListCache: toolLists.cache } : {}),
    ...options.manager,
    // A login or a refresh on one replica serves all (docs/oauth.md, "Storage").
    ...(sharedStore && !options.manager?.oauth?.store
      ? { oauth: { ...options.manager?.oauth, store: createClusterOAuthStore(sharedStore) } }
      : {}),
    logger: logger.child({ component: 'client-manager' }),
  });
  // One BM25 ranker: the `bm25` strategy, the first stage of `llm`, and the fallback of every other strategy.
  const searchProvider = options.searchProvider ?? new Bm25SearchProvider();
  const strategyProviders = createStrategyProviders(config, { logger, firstStage: searchProvider });
  const pins = openPinStore(options.pinStore, logger.child({ component: 'pins' }));
  const catalog = new ToolCatalog({
    sources: [manager, ...(options.registries ?? [])],
    ...(pins.store ? { pinStore: pins.store } : {}),
    config,
    logger: logger.child({ component: 'catalog' }),
    searchProvider,
    ...strategyProviders,
    ...(options.tokens ? { tokens: options.tokens } : {}),
  });
  const auditSink =
    options.audit ??
    (config.audit
      ? createJsonlAuditSink(config.audit.file, {
          onError: (error) => {
            logger.error('cannot write the audit log; audit records are being lost', {
              file: config.audit?.file,
              error: error.message,
            });
            usage.auditSinkFailed();
          },
        })
      : undefined);
  // Servers audit into the feed: the file (when configured) and whoever listens hear the same records.
  const audit = createAuditFeed(auditSink, (error) =>
    logger.warn('an audit listener failed', { error: error instanceof Error ? error.message : String(error) }),
  );
  const usage = new UsageStatistics({
    logger: logger.child({ component: 'usage' }),
    ...(config.audit && !options.audit && options.persistUsage !== false
      ? { persistence: { auditFile: config.audit.file, usageFile: config.audit.usageFile } }
      : {}),
    ...(sharedStore ? { cluster: { store: sharedStore } } : {}),
  });
  const stopUsage = audit.subscribe((record) => usage.record(record));
  const mode = options.mode ?? config.exposure.mode;
  // This runtime's own: another runtime in the process neither sees its held calls nor opens its states.
  const pendingInputs = new PendingInputs(options.requestStateKey ? { requestStateKey: options.requestStateKey } : {});
  const hub = new ForwardingHub({
    gateway: manager,
    catalog,
    sessions,
    logger: logger.child({ component: 'forwarding' }),
    pendingInputs,
    // Tasks written through, so any replica answers them (packages/server/README.md, "Tasks across replicas").
    ...(sharedStore ? { clusterStore: sharedStore } : {}),
  });
  const replicas = createReplicaFanOut(sharedStore, { manager, catalog }, logger.child({ component: 'replicas' }));
  const waitsForClient = options.backendClientCapabilities === 'first-client';
  let started: Promise<ServerStatus[]> | undefined;
  let startNow: (() => void) | undefined;
  let clientInitialized = false;
  const startBackends = (startOptions: { waitForClientMs?: number } = {}) => {
    started ??= new Promise<ServerStatus[]>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      startNow = () => {
        startNow = undefined;
        clearTimeout(timer);
        // Synchronously: the servers are `starting` before `initialize` decides whether to wait for them.
        resolve(manager.startAll());
      };
      if (!waitsForClient || clientInitialized) return startNow();
      timer = setTimeout(() => startNow?.(), startOptions.waitForClientMs ?? 2000);
      timer.unref();
    });
    return started;
  };
  const onInitialize = () => {
    clientInitialized = true;
    startNow?.();
  };
  const serverFactory = (context: { era: ProtocolEra }, overrides: Partial<SearchMcpServerOptions> = {}) =>
    createSearchMcpServer({
      catalog,
      manager,
      mode,
      hub,
      pendingInputs,
      logger: logger.child({ component: 'server' }),
      audit,
      ...(options.projectId !== undefined ? { projectId: options.projectId } : {}),
      ...(options.serverInfo ? { serverInfo: options.serverInfo } : {}),
      // The first client's capabilities are known now: backends waiting for them may start.
      ...(waitsForClient ? { onInitialize } : {}),
      era: context.era,
      ...overrides,
    });
  let closing: Promise<void> | undefined;
  return {
    config,
    mode,
    manager,
    catalog,
    hub,
    pendingInputs,
    strategyProviders,
    audit,
    usage,
    replicas,
    startBackends,
    serverFactory,
    createServer: (overrides = {}) =>
      createEraDetectingConnection((context) => serverFactory(context, overrides), {
        onerror: (error) => logger.debug('client message not served', { error: error.message }),
      }),
    close: (closeOptions = {}) => {
      closing ??= (async () => {
        replicas.close();
        // The backends stop alongside the store writes of closing (tasks, heartbeat), each of which waits about 1 s
        // at most: a cluster store that does not answer never keeps a backend process alive (docs/scale-out.md).
        await Promise.all([
          hub.close(),
          (async () => {
            await pins.close();
            await manager.close(closeOptions);
          })(),
        ]);
        // The lists this run's servers sent are on disk before the process may exit (`search`, `call`).
        await toolLists.flush();
        // Before the audit feed: the last snapshot covers every record the file holds, and records after it are read
        // back from the file at the next start.
        stopUsage();
        await usage.close();
        await audit.close();
      })();
      return closing;
    },
  };
}
