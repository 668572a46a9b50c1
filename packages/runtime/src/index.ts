/**
 * `@search-mcp/runtime`: the composition root of Search MCP. One client manager, one catalog and one audit log for
 * any number of MCP sessions, and the one shutdown path both apps use.
 */
export { createSearchMcpRuntime } from './search-mcp-runtime.js';
export type { SearchMcpRuntime, SearchMcpRuntimeOptions } from './search-mcp-runtime.js';
export type { EraServerFactory, ProtocolEra, SearchMcpConnection } from './serving/era-detecting-connection.js';

export { createAuditFeed } from './audit/audit-feed.js';
export type { AuditFeed, AuditListener } from './audit/audit-feed.js';
export { createJsonlAuditSink } from './audit/jsonl-audit-sink.js';
export type { JsonlAuditSinkOptions } from './audit/jsonl-audit-sink.js';
export type { AuditRecord, AuditSink } from '@search-mcp/server';

export { UsageStatistics } from './usage/usage-statistics.js';
export type { UsageStatisticsOptions } from './usage/usage-statistics.js';
export { OTHER_SERIES, usageWindows } from './usage/usage-report-types.js';
export type { UsageFigures, UsageReport, UsageReportQuery, UsageWindow } from './usage/usage-report-types.js';

export { handleShutdownSignals, shutdownSignals, signalExitCode } from './shutdown/handle-shutdown-signals.js';
export type {
  ShutdownHandle,
  ShutdownOptions,
  ShutdownProcess,
  ShutdownSignal,
} from './shutdown/handle-shutdown-signals.js';

export { createConfigReloader } from './reload/config-reloader.js';
export type { ConfigReloader, ConfigReloaderOptions } from './reload/config-reloader.js';
export type {
  ConfigReload,
  ReconfigurableCatalog,
  ReconfigurableServers,
  ServerReconfiguration,
} from './reload/reload-types.js';
export { CONFIG_WATCH_ENV_VARIABLE, startHotReload } from './reload/start-hot-reload.js';
export type { ReplicaAction, ReplicaFanOut } from './reload/replica-fan-out.js';
export type { HotReloadOptions, ReloadableRuntime } from './reload/start-hot-reload.js';

export { strategiesInUse } from './search/strategy-providers.js';
export type { StrategyProviders } from './search/strategy-providers.js';
export { prepareHybridSearch } from './search/hybrid-search-readiness.js';
export { embeddingsInstallCommand } from './search/embeddings-install-command.js';
export type { EmbeddingsInstallOptions } from './search/embeddings-install-command.js';
export type {
  HybridSearchReadiness,
  HybridSearchStatus,
  PrepareHybridSearchOptions,
} from './search/hybrid-search-readiness.js';

export { FilePinStore, defaultPinFilePath, PIN_FILE_NAME } from './trust/file-pin-store.js';
export type { FilePinStoreOptions } from './trust/file-pin-store.js';
export type { PinFileLockOptions } from './trust/pin-file-lock.js';
export { PINNING_ENV_VARIABLE } from './trust/default-pin-store.js';
export { FileToolListCache, TOOL_LIST_FILE_NAME } from './tool-lists/file-tool-list-cache.js';
export type { FileToolListCacheOptions } from './tool-lists/file-tool-list-cache.js';
export { TOOL_CACHE_ENV_VARIABLE } from './tool-lists/default-tool-list-cache.js';
