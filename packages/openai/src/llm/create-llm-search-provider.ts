import type { FallbackAnswer, SearchProvider } from '@search-mcp/catalog';
import {
  ConfigError,
  configDefaults,
  formatIssues,
  silentLogger,
  type LlmSearchConfig,
  type Logger,
} from '@search-mcp/shared';
import type OpenAI from 'openai';
import type { ReasoningEffort } from 'openai/resources/shared';
import { apiKeyProblem } from '../client/api-key.js';
import { createOpenAiClient } from '../client/openai-client.js';
import type { Environment } from '../web-search/web-search-environment.js';
import { LlmSearchProvider } from './llm-search-provider.js';

/**
 * `search.llm` of the config file (packages/shared/README.md, "Configuration"; `LlmSearchConfig` as `parseConfig`
 * resolves it): what `strategy: "llm"` runs with. Absent fields take the config's defaults (`gpt-5-mini`, 15,000 ms, 20
 * candidates).
 */
export type LlmSearchSettings = Partial<LlmSearchConfig> & {
  /** Sent as `reasoning_effort` when set (reasoning models only). */
  reasoningEffort?: Exclude<ReasoningEffort, null>;
};

export interface CreateLlmSearchProviderOptions {
  /** Default `new Bm25SearchProvider()`: the candidates and the fallback. */
  firstStage?: SearchProvider;
  logger?: Logger;
  /** The fetch of the OpenAI client (proxies, tests). */
  fetch?: typeof fetch;
  onAnswer?: (answer: FallbackAnswer) => void;
  /**
   * Where `OPENAI_API_KEY` and `OPENAI_BASE_URL` are read when `apiKey` / `baseUrl` are absent (as the OpenAI
   * client library would). Default `process.env`.
   */
  environment?: Environment;
}

/**
 * The provider of `search.strategy: "llm"`, from `search.llm`. It never throws: with no usable key or a wrong base
 * URL it is created all the same, logs why once, and every search falls back to the first stage (the rest of
 * Search MCP keeps working; the log says what to fix).
 */
export function createLlmSearchProvider(
  settings: LlmSearchSettings,
  options: CreateLlmSearchProviderOptions = {},
): LlmSearchProvider {
  const logger = options.logger ?? silentLogger;
  const environment = options.environment ?? process.env;
  const timeoutMs = settings.timeoutMs ?? configDefaults.llmTimeoutMs;
  const apiKey = settings.apiKey ?? environment['OPENAI_API_KEY'];
  const baseUrl = settings.baseUrl ?? (environment['OPENAI_BASE_URL'] || undefined);
  let client: OpenAI | undefined;
  let unavailableReason: string | undefined;
  const keyProblem = apiKeyProblem(apiKey);
  if (keyProblem) {
    unavailableReason =
      settings.apiKey === undefined
        ? `search.llm.apiKey is not set, and OPENAI_API_KEY ${keyProblem}`
        : `search.llm.apiKey ${keyProblem}`;
  } else {
    try {
      client = createOpenAiClient({
        apiKey: apiKey as string,
        ...(baseUrl ? { baseUrl } : {}),
        requestTimeoutMs: timeoutMs,
        // Waiting longer than the whole search may take is pointless: the first stage answers by then.
        maxRetryAfterMs: timeoutMs,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        logger,
      });
    } catch (error) {
      if (!ConfigError.isInstance(error)) throw error;
      const issues = error.issues.map((issue) => ({ ...issue, path: `search.llm.${issue.path}` }));
      unavailableReason = formatIssues(issues);
    }
  }
  if (unavailableReason) {
    logger.warn('LLM search is unavailable; searches use the first stage (BM25)', { reason: unavailableReason });
  }
  return new LlmSearchProvider({
    client,
    ...(unavailableReason ? { unavailableReason } : {}),
    model: settings.model ?? configDefaults.llmModel,
    ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
    timeoutMs,
    candidates: settings.candidates ?? configDefaults.llmCandidates,
    ...(options.firstStage ? { firstStage: options.firstStage } : {}),
    logger,
    ...(options.onAnswer ? { onAnswer: options.onAnswer } : {}),
  });
}
