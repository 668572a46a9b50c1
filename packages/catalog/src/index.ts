/**
 * `@search-mcp/catalog`: the tool catalog (visibility, search, execution), the `SearchProvider` extension point
 * with the BM25, cloud and fallback providers, the cloud search wire contract, and an in-process tool registry.
 */
export type { SearchProvider, SearchProviderRequest, SearchResult } from './search-provider.js';

export { ToolCatalog } from './catalog/tool-catalog.js';
export type { ToolCatalogOptions } from './catalog/tool-catalog.js';
export type {
  Caller,
  CallerAccess,
  CallerGrant,
  CatalogExecuteOptions,
  CatalogListFilter,
  CatalogSearchHit,
  CatalogSearchRequest,
  CatalogSearchResponse,
  CatalogSearchStrategy,
} from './catalog/catalog-types.js';
export type { CatalogSearchFilter } from './catalog/search-filter.js';
export type { CatalogToken } from './catalog/caller-authorization.js';
export type { CatalogToolSource, DisabledTool } from './catalog/catalog-tool-source.js';
export { isServerVisibleToProject } from './catalog/project-visibility.js';
export {
  allowedProjects,
  isProjectAllowed,
  isServerAllowed,
  isToolAllowed,
  isWholeServerAllowed,
} from './catalog/caller-access.js';
export type { ToolExecutorOptions } from './execution/tool-executor.js';
export { RateLimiter } from './limits/rate-limiter.js';
export type { RateLimiterOptions } from './limits/rate-limiter.js';

export { Bm25SearchProvider } from './providers/bm25-search-provider.js';
export { defaultGoodMatch } from './providers/bm25-search-options.js';
export type { Bm25FieldWeights, Bm25SearchProviderOptions } from './providers/bm25-search-options.js';
export { judgeSearchMatch } from './catalog/search-match.js';
export type { CatalogMatch, SearchMatch } from './catalog/search-match.js';
export type { Bm25IndexStats } from './search/bm25/tool-index.js';
export { CloudSearchProvider } from './providers/cloud-search-provider.js';
export type { CloudSearchFetch, CloudSearchProviderOptions } from './providers/cloud-search-provider.js';
export { cloudSearchRequestSchema, cloudSearchResponseSchema } from './providers/cloud-search-contract.js';
export type { CloudSearchRequest, CloudSearchResponse } from './providers/cloud-search-contract.js';
export { FallbackSearchProvider } from './providers/fallback-search-provider.js';
export type { FallbackAnswer, FallbackSearchProviderOptions } from './providers/fallback-search-provider.js';

export { glossJapaneseQuery } from './search/text/japanese-query-gloss.js';
export type { EnglishGloss } from './search/text/japanese-query-gloss.js';
export { topKIndices } from './search/rank/top-k.js';

export { ToolRegistry } from './registry/tool-registry.js';
export type {
  RegisterOptions,
  ToolExecutionContext,
  ToolImplementation,
  ToolMetadata,
  ToolParameter,
  ToolRegistryEntry,
  ToolRegistryListFilter,
  ToolRegistryOptions,
} from './registry/tool-registry-types.js';

export { scanToolDefinition } from './trust/description-scan.js';
export type {
  DescriptionFinding,
  DescriptionFindingKind,
  DescriptionScanContext,
  DescriptionScanResult,
  ScannableToolDefinition,
} from './trust/description-scan.js';
export { describeFinding, describeFindings, isInstructionFinding } from './trust/describe-findings.js';

export {
  canonicalJson,
  changedFields,
  definitionHash,
  pinnedDefinition,
  pinnedFields,
} from './trust/tool-pin.js';
export type { PinnedDefinition, PinnedField } from './trust/tool-pin.js';
export { ApprovalChangedError } from './trust/approval-changed-error.js';
export type {
  ApproveOptions,
  PendingTool,
  PinObservation,
  QuarantineReason,
  ServerPins,
  ToolPin,
  ToolPinStore,
} from './trust/tool-pin-store.js';
export { ToolQuarantine } from './trust/tool-quarantine.js';
export type { DescriptionScanHook, ScannedTool } from './trust/scanned-tool.js';
export type { QuarantineEntry, ScanWarning } from './trust/tool-quarantine.js';
export {
  approveCommand,
  describeQuarantine,
  quarantineMessage,
  quarantineSummary,
} from './trust/quarantine-description.js';
export type { QuarantinedTool } from './trust/quarantine-description.js';
