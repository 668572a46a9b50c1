/**
 * Search request and result types: those of the cloud search API (docs/cloud-search.md) and of `tool_discovery`
 * (packages/server/README.md, "What a client sees").
 */

/** A tool as sent to a search service: the fields a ranker may use. */
export interface SearchToolInfo {
  toolKey: string;
  toolName: string;
  serverName: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export interface SearchRequest {
  /** Several phrasings or sub-steps of one task. */
  query: string[];
  /** Background information or task description. */
  context?: string;
  tools: SearchToolInfo[];
  maxResults?: number;
}

export interface SearchResult {
  toolKey: string;
  toolName: string;
  serverName: string;
  description?: string;
  /** Normalized score, 0..1, best = 1. */
  relevance: number;
  /** Why this tool was chosen (e.g. the matched terms). */
  explanation?: string;
}

export interface SearchResponse {
  results: SearchResult[];
}

/**
 * `search.strategy`: `bm25` (local, default), `hybrid` (offline embeddings fused with BM25), `llm` (a model re-ranks
 * BM25 candidates), `cloud` (a remote search service), `off`. `hybrid`, `llm` and `cloud` fall back to BM25.
 */
export type SearchStrategy = 'bm25' | 'hybrid' | 'llm' | 'cloud' | 'off';
/** Per-project `optimization`: a strategy, or null for catalog search off in that project. */
export type ProjectOptimization = Exclude<SearchStrategy, 'off'> | null;
