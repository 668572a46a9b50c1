import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { Bm25SearchProvider, type SearchProvider, ToolCatalog, type ToolRegistry } from '@search-mcp/catalog';
import { McpClientManager, type McpClientManagerOptions } from '@search-mcp/client-manager';
import { type AuditSink, createSearchMcpServer, type SearchMcpServerOptions } from '@search-mcp/meta-tools';
import { type Logger, type ResolvedConfig, silentLogger } from '@search-mcp/shared';
import { createJsonlAuditSink } from './audit/jsonl-audit-sink.js';
import { createStrategyProviders } from './search/strategy-providers.js';

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
  serverInfo?: Implementation;
  manager?: Omit<McpClientManagerOptions, 'logger'>;
  /** The tokens requests may name (ids and projects); default `auth.tokens` of the config. */
  tokens?: ReadonlyArray<{ id: string; projects?: readonly string[] }>;
}

/** Everything an app runs: one client manager, one catalog, one audit log, and MCP servers made on demand. */
export interface SearchMcpRuntime {
  readonly config: ResolvedConfig;
  readonly mode: 'meta' | 'proxy';
  readonly manager: McpClientManager;
  readonly catalog: ToolCatalog;
  readonly audit?: AuditSink;
  /** A new MCP server (one per stdio connection or HTTP session) over the shared manager and catalog. */
  createServer(overrides?: Partial<SearchMcpServerOptions>): Server;
  /** Stops every backend (ending their process trees) and flushes the audit log. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * The composition root: wires the libraries the way both apps run them. Backends are spawned once per runtime and
 * shared by every session, never per session.
 */
export function createSearchMcpRuntime(options: SearchMcpRuntimeOptions): SearchMcpRuntime {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const manager = new McpClientManager(config, {
    ...options.manager,
    logger: logger.child({ component: 'client-manager' }),
  });
  // One BM25 ranker: the `bm25` strategy, the first stage of `llm`, and the fallback of every other strategy.
  const searchProvider = options.searchProvider ?? new Bm25SearchProvider();
  const strategyProviders = createStrategyProviders(config, { logger, firstStage: searchProvider });
  const catalog = new ToolCatalog({
    sources: [manager, ...(options.registries ?? [])],
    config,
    logger: logger.child({ component: 'catalog' }),
    searchProvider,
    ...strategyProviders,
    ...(options.tokens ? { tokens: options.tokens } : {}),
  });
  const audit =
    options.audit ??
    (config.audit
      ? createJsonlAuditSink(config.audit.file, {
          onError: (error) =>
            logger.error('cannot write the audit log; audit records are being lost', {
              file: config.audit?.file,
              error: error.message,
            }),
        })
      : undefined);
  const mode = options.mode ?? config.exposure.mode;
  let closing: Promise<void> | undefined;
  return {
    config,
    mode,
    manager,
    catalog,
    ...(audit ? { audit } : {}),
    createServer: (overrides = {}) =>
      createSearchMcpServer({
        catalog,
        manager,
        mode,
        logger: logger.child({ component: 'meta-tools' }),
        ...(audit ? { audit } : {}),
        ...(options.projectId !== undefined ? { projectId: options.projectId } : {}),
        ...(options.serverInfo ? { serverInfo: options.serverInfo } : {}),
        ...overrides,
      }),
    close: () => {
      closing ??= (async () => {
        await manager.close();
        await audit?.close?.();
      })();
      return closing;
    },
  };
}
