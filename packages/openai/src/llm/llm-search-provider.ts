/**
 * LLM-ranked tool search (packages/openai/README.md, "LLM ranking"): the first stage (BM25 by default) finds the top N
 * candidates, a model picks and orders the ones that fit the queries and context, each with a relevance and a one-line
 * explanation. On any failure or after `timeoutMs` the first stage's own ranking is the answer
 * (`FallbackSearchProvider`), so a search never fails because the model did; the caller's cancellation is passed on.
 */
import {
  Bm25SearchProvider,
  FallbackSearchProvider,
  type FallbackAnswer,
  type SearchProvider,
  type SearchProviderRequest,
} from '@search-mcp/catalog';
import { configDefaults, type Logger, type SearchResult } from '@search-mcp/shared';
import type OpenAI from 'openai';
import type { ReasoningEffort } from 'openai/resources/shared';
import { LlmRanker } from './llm-ranker.js';

export interface LlmSearchProviderOptions {
  /** A configured client (`createOpenAiClient`). Absent: every search falls back, saying `unavailableReason`. */
  client: OpenAI | undefined;
  /** Why there is no client (`search.llm.apiKey is not set`), for the fallback's log line. */
  unavailableReason?: string;
  /** A model with structured outputs (JSON schema), e.g. `gpt-5-mini` or `gpt-4.1-mini`. */
  model: string;
  /**
   * Sent as `reasoning_effort` when set (reasoning models only: `minimal` makes gpt-5 models rank in a second or
   * two). Unset: the model's own.
   */
  reasoningEffort?: Exclude<ReasoningEffort, null>;
  /** How many of the first stage's results the model sees. Default 20 (`search.llm.candidates`). */
  candidates?: number;
  /** Default `new Bm25SearchProvider()`. */
  firstStage?: SearchProvider;
  /** Time limit of the model's answer; the first stage answers after it. Default 15,000 ms (`search.llm.timeoutMs`). */
  timeoutMs?: number;
  logger?: Logger;
  /** Called after each search with the provider that answered and, after a fallback, why. */
  onAnswer?: (answer: FallbackAnswer) => void;
}

export class LlmSearchProvider implements SearchProvider {
  readonly id = 'llm';
  private readonly withFallback: FallbackSearchProvider;

  constructor(options: LlmSearchProviderOptions) {
    const firstStage = options.firstStage ?? new Bm25SearchProvider();
    const ranker = new LlmRanker({
      client: options.client,
      ...(options.unavailableReason !== undefined ? { unavailableReason: options.unavailableReason } : {}),
      model: options.model,
      ...(options.reasoningEffort ? { reasoningEffort: options.reasoningEffort } : {}),
      candidates: Math.max(1, Math.trunc(options.candidates ?? configDefaults.llmCandidates)),
      firstStage,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    this.withFallback = new FallbackSearchProvider(ranker, firstStage, {
      primaryTimeoutMs: options.timeoutMs ?? configDefaults.llmTimeoutMs,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.onAnswer ? { onAnswer: options.onAnswer } : {}),
    });
  }

  search(request: SearchProviderRequest): Promise<SearchResult[]> {
    return this.withFallback.search(request);
  }
}
