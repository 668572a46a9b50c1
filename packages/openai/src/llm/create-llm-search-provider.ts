import type { FallbackAnswer, SearchProvider } from '@search-mcp/catalog';
import { ConfigError, formatIssues, silentLogger, type Logger } from '@search-mcp/shared';
import type OpenAI from 'openai';
import { apiKeyProblem } from '../client/api-key.js';
import { createOpenAiClient } from '../client/openai-client.js';
import { LlmSearchProvider, llmSearchDefaults } from './llm-search-provider.js';

/** `search.llm` of the config file (CONTRACT §2): what `strategy: "llm"` runs with. */
export interface LlmSearchSettings {
  model: string;
  /** An OpenAI-compatible endpoint. Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  apiKey: string;
  /** Default 5,000 ms. */
  timeoutMs?: number;
  /** Default 20. */
  candidates?: number;
}

export interface CreateLlmSearchProviderOptions {
  /** Default `new Bm25SearchProvider()`: the candidates and the fallback. */
  firstStage?: SearchProvider;
  logger?: Logger;
  /** The fetch of the OpenAI client (proxies, tests). */
  fetch?: typeof fetch;
  onAnswer?: (answer: FallbackAnswer) => void;
}

/**
 * The provider of `search.strategy: "llm"`, from `search.llm`. It never throws: with a key that cannot be a key or
 * a wrong base URL it is created all the same, logs why once, and every search falls back to the first stage (the
 * rest of Search MCP keeps working; the log says what to fix).
 */
export function createLlmSearchProvider(
  settings: LlmSearchSettings,
  options: CreateLlmSearchProviderOptions = {},
): LlmSearchProvider {
  const logger = options.logger ?? silentLogger;
  const timeoutMs = settings.timeoutMs ?? llmSearchDefaults.timeoutMs;
  let client: OpenAI | undefined;
  let unavailableReason: string | undefined;
  const keyProblem = apiKeyProblem(settings.apiKey);
  if (keyProblem) {
    unavailableReason = `search.llm.apiKey ${keyProblem}`;
  } else {
    try {
      client = createOpenAiClient({
        apiKey: settings.apiKey,
        ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
        requestTimeoutMs: timeoutMs,
        // Waiting longer than the whole search may take is pointless: the first stage answers by then.
        maxRetryAfterMs: timeoutMs,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        logger,
      });
    } catch (error) {
      if (!ConfigError.isInstance(error)) throw error;
      unavailableReason = `search.llm: ${formatIssues(error.issues.map((issue) => ({ ...issue, path: `search.llm.${issue.path}` })))}`;
    }
  }
  if (unavailableReason) {
    logger.warn('LLM search is unavailable; searches use the first stage (BM25)', { reason: unavailableReason });
  }
  return new LlmSearchProvider({
    client,
    ...(unavailableReason ? { unavailableReason } : {}),
    model: settings.model,
    timeoutMs,
    ...(settings.candidates !== undefined ? { candidates: settings.candidates } : {}),
    ...(options.firstStage ? { firstStage: options.firstStage } : {}),
    logger,
    ...(options.onAnswer ? { onAnswer: options.onAnswer } : {}),
  });
}
