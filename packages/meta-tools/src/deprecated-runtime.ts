/**
 * @deprecated The composition root moved to `@search-mcp/runtime`. This copy stays only until both apps import
 * `createSearchMcpRuntime` and `createJsonlAuditSink` from there; then it is deleted (and `meta-tools` stops
 * needing `@search-mcp/client-manager`).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { type SearchProvider, ToolCatalog, type ToolRegistry } from '@search-mcp/catalog';
import { McpClientManager, type McpClientManagerOptions } from '@search-mcp/client-manager';
import { type Logger, type ResolvedConfig, silentLogger } from '@search-mcp/shared';
import type { AuditSink } from './audit/audit-record.js';
import { createSearchMcpServer } from './create-search-mcp-server.js';
import type { SearchMcpServerOptions } from './search-mcp-server-options.js';

/** @deprecated Use `createJsonlAuditSink` of `@search-mcp/runtime`. */
export function createJsonlAuditSink(file: string, options: { onError?: (error: Error) => void } = {}): AuditSink {
  mkdirSync(dirname(file), { recursive: true });
  const stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  let failed = false;
  stream.on('error', (error) => {
    if (failed) return;
    failed = true;
    options.onError?.(error);
  });
  return {
    record: (record) => {
      if (!failed) stream.write(`${JSON.stringify(record)}\n`);
    },
    close: () => new Promise<void>((resolve) => stream.end(resolve)),
  };
}

/** @deprecated Use `SearchMcpRuntimeOptions` of `@search-mcp/runtime`. */
export interface SearchMcpRuntimeOptions {
  config: ResolvedConfig;
  logger?: Logger;
  mode?: 'meta' | 'proxy';
  projectId?: string;
  registries?: readonly ToolRegistry[];
  searchProvider?: SearchProvider;
  audit?: AuditSink;
  serverInfo?: Implementation;
  manager?: Omit<McpClientManagerOptions, 'logger'>;
  tokens?: ReadonlyArray<{ id: string; projects?: readonly string[] }>;
}

/** @deprecated Use `SearchMcpRuntime` of `@search-mcp/runtime`. */
export interface SearchMcpRuntime {
  readonly config: ResolvedConfig;
  readonly mode: 'meta' | 'proxy';
  readonly manager: McpClientManager;
  readonly catalog: ToolCatalog;
  readonly audit?: AuditSink;
  createServer(overrides?: Partial<SearchMcpServerOptions>): Server;
  close(): Promise<void>;
}

/** @deprecated Use `createSearchMcpRuntime` of `@search-mcp/runtime`. */
export function createSearchMcpRuntime(options: SearchMcpRuntimeOptions): SearchMcpRuntime {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const manager = new McpClientManager(config, {
    ...options.manager,
    logger: logger.child({ component: 'client-manager' }),
  });
  const catalog = new ToolCatalog({
    sources: [manager, ...(options.registries ?? [])],
    config,
    logger: logger.child({ component: 'catalog' }),
    ...(options.searchProvider ? { searchProvider: options.searchProvider } : {}),
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
