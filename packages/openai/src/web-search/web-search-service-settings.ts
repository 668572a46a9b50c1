import type { Logger } from '@search-mcp/shared';
import type OpenAI from 'openai';
import type { ReasoningEffort } from 'openai/resources/shared';
import type { OpenAiClientSettings } from '../client/openai-client.js';

/** How much of the pages the hosted `web_search` tool reads (the Responses API's `search_context_size`). */
export type SearchContextSize = 'low' | 'medium' | 'high';

/** What `createWebSearchService` takes (`webSearchSettingsFromEnvironment` reads them from the environment). */
export interface WebSearchServiceSettings {
  /** A configured client (`createOpenAiClient`), e.g. one shared with the LLM ranker. Else `openai` is used. */
  client?: OpenAI;
  /** Settings to create the client from. Without a usable `apiKey` every search answers with setup steps. */
  openai?: Omit<OpenAiClientSettings, 'apiKey' | 'logger'> & { apiKey?: string };
  /** `OPENAI_MODEL`. Default `o3`. Any model that supports the `web_search` tool in the Responses API. */
  model?: string;
  /** `REASONING_EFFORT`. Default: the model's own (medium for o3). Not sent when unset. */
  reasoningEffort?: Exclude<ReasoningEffort, null>;
  /** `SEARCH_CONTEXT_SIZE`: how much of the pages the search tool reads. Default: the API's (medium). */
  searchContextSize?: SearchContextSize;
  /** Time limit of one whole search. Default 300,000 ms (5 minutes). */
  timeoutMs?: number;
  /** Pause between two polls of a background search. Default 2,000 ms. */
  pollIntervalMs?: number;
  /**
   * Background mode (default true). Set false for OpenAI-compatible endpoints without it: one request then waits
   * for the whole search (progress is still reported at `pollIntervalMs`), and a cancelled call just drops it.
   */
  background?: boolean;
  /** Problems found while reading the settings (`webSearchSettingsFromEnvironment`); each search reports them. */
  setupProblems?: readonly string[];
  logger?: Logger;
  /** The clock of "today" in time-limited queries. */
  now?: () => Date;
}
