/**
 * Search request and result types of seed 004 (the `/catalog/search` cloud contract and `tool_discovery`).
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

/** `search.strategy` and per-project `optimization` (null = catalog search off for that project). */
export type SearchStrategy = 'bm25' | 'cloud' | 'off';
export type ProjectOptimization = 'bm25' | 'cloud' | null;
