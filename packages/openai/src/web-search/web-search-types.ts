/**
 * The web search's contract (types only): what `chatgpt_o3_search` takes and returns (apps/web-search-server/README.md,
 * "The tool"), and how a caller follows a search that takes minutes.
 */

export type WebSearchTimeframe = 'recent' | 'past_week' | 'past_month' | 'past_year';

export interface WebSearchParams {
  query: string;
  /** 1..50, default 10. */
  limit?: number;
  /** `auto` (default): the query's language. Else a language name or code (`ja`, `en-US`, `German`). */
  language?: string;
  timeframe?: WebSearchTimeframe;
}

export interface WebSearchResult {
  /** The page title as the search tool gave it (the host name when it gave none). */
  title: string;
  url: string;
  /** What the model wrote about this source, next to its citation. */
  snippet: string;
  /** `YYYY-MM-DD` (or `YYYY-MM`) when the model named a publication date next to the citation. */
  publishedDate?: string;
  /**
   * Position-based: 1 for the source the model listed first, decreasing evenly. The Responses API gives no score;
   * this is an ordering, not a calibrated probability.
   */
  relevanceScore?: number;
}

export interface WebSearchOutcome {
  query: string;
  results: WebSearchResult[];
  /** The model that answered (as the API reports it, e.g. `o3-2025-04-16`). */
  model: string;
  /** The OpenAI response id (`resp_…`), for support requests and the usage dashboard. */
  responseId: string;
  /** Set when the answer is usable but worth a remark (the model cited no sources, results were cut to `limit`). */
  notice?: string;
}

export interface WebSearchProgress {
  /** Seconds since the search started; increases with every report. */
  progress: number;
  /** `queued` or `in_progress`, with the time waited so far. */
  message: string;
}

export interface WebSearchCallOptions {
  /** Aborting cancels the OpenAI response too. */
  signal?: AbortSignal;
  /** Called while the search runs (after it is created and after every poll), so clients keep waiting. */
  onProgress?: (progress: WebSearchProgress) => void;
}

export interface WebSearchService {
  /**
   * Runs one search.
   * @throws WebSearchError for everything a user can act on (setup, key, access, rate limit, timeout, refusal…).
   */
  search(params: WebSearchParams, options?: WebSearchCallOptions): Promise<WebSearchOutcome>;
  /** Cancels the searches in flight (their OpenAI responses too) and waits until the cancellations were sent. */
  close(): Promise<void>;
}
