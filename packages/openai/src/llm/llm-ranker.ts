/**
 * The ranking step of `LlmSearchProvider`: the first stage's top candidates, ranked by a model through structured
 * output (Chat Completions `response_format: json_schema`, which most OpenAI-compatible servers also speak). It
 * throws `SearchProviderError` on any failure; `LlmSearchProvider` falls back to the first stage then.
 */
import type { SearchProvider, SearchProviderRequest } from '@search-mcp/catalog';
import {
  errorMessage,
  SearchProviderError,
  silentLogger,
  truncateText,
  type Logger,
  type SearchProviderFailure,
  type SearchResult,
  type ToolInfo,
} from '@search-mcp/shared';
import type OpenAI from 'openai';
import type { ReasoningEffort } from 'openai/resources/shared';
import * as z from 'zod';
import { untilAborted } from '../client/abortable.js';
import { openAiDefaults } from '../client/openai-client.js';
import { describeOpenAiFailure, type OpenAiFailure } from '../client/openai-failure.js';
import { llmRankingMessages, llmRankingResponseFormat } from './llm-ranking-prompt.js';

const maxExplanationLength = 160;

const rankingSchema = z.object({
  tools: z.array(
    z.object({
      toolKey: z.string(),
      relevance: z.number(),
      explanation: z.string().optional(),
    }),
  ),
});

export interface LlmRankerSettings {
  /** Absent: every search fails with `unavailableReason` (and the provider falls back). */
  client: OpenAI | undefined;
  unavailableReason?: string;
  model: string;
  reasoningEffort?: Exclude<ReasoningEffort, null>;
  candidates: number;
  firstStage: SearchProvider;
  logger?: Logger;
}

export class LlmRanker implements SearchProvider {
  readonly id = 'llm';
  private readonly logger: Logger;

  constructor(private readonly settings: LlmRankerSettings) {
    this.logger = settings.logger ?? silentLogger;
  }

  async search(request: SearchProviderRequest): Promise<SearchResult[]> {
    const { client, model } = this.settings;
    if (!client) {
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'provider',
        message: this.settings.unavailableReason ?? 'no OpenAI client is configured',
      });
    }
    const queries = request.queries.filter((query) => typeof query === 'string' && query.trim() !== '');
    if (queries.length === 0 || request.tools.length === 0 || request.maxResults < 1) return [];
    const candidates = await this.candidates(request, queries);
    if (candidates.length === 0) return [];

    const started = Date.now();
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await untilAborted(
        client.chat.completions.create(
          {
            model,
            messages: llmRankingMessages({
              queries,
              ...(request.context ? { context: request.context } : {}),
              candidates,
              maxResults: request.maxResults,
            }),
            response_format: llmRankingResponseFormat(candidates),
            ...(this.settings.reasoningEffort ? { reasoning_effort: this.settings.reasoningEffort } : {}),
          },
          request.signal ? { signal: request.signal } : {},
        ),
        request.signal,
      );
    } catch (error) {
      throw this.providerError(describeOpenAiFailure(error, this.failureContext(client)), error);
    }
    const results = this.results(completion, candidates, request.maxResults);
    this.logger.debug('llm ranking', {
      model: completion.model ?? model,
      candidates: candidates.length,
      results: results.length,
      ms: Date.now() - started,
      ...(completion.usage
        ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens }
        : {}),
    });
    return results;
  }

  /** The first stage's top N (at least `maxResults`), as the request's own tools: nothing else can be returned. */
  private async candidates(request: SearchProviderRequest, queries: string[]): Promise<ToolInfo[]> {
    const count = Math.min(request.tools.length, Math.max(this.settings.candidates, request.maxResults));
    const firstStage = await this.settings.firstStage.search({ ...request, queries, maxResults: count });
    const byKey = new Map(request.tools.map((tool) => [tool.toolKey, tool]));
    const candidates: ToolInfo[] = [];
    for (const hit of firstStage) {
      const tool = byKey.get(hit.toolKey);
      if (tool && !candidates.includes(tool)) candidates.push(tool);
    }
    return candidates.slice(0, count);
  }

  private results(
    completion: OpenAI.Chat.Completions.ChatCompletion,
    candidates: readonly ToolInfo[],
    maxResults: number,
  ): SearchResult[] {
    const choice = completion.choices?.[0];
    const message = choice?.message;
    if (message?.refusal) {
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'provider',
        message: `the model refused to rank: ${truncateText(message.refusal, 200)}`,
      });
    }
    if (choice?.finish_reason === 'length') {
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'invalid-response',
        message: 'the ranking was cut off by the output token limit',
      });
    }
    let ranking: z.infer<typeof rankingSchema>;
    try {
      ranking = rankingSchema.parse(JSON.parse(withoutCodeFence(message?.content ?? '')));
    } catch (error) {
      throw new SearchProviderError({
        providerId: this.id,
        failure: 'invalid-response',
        message: `the model's answer is not the requested JSON (${truncateText(errorMessage(error), 160)})`,
        cause: error,
      });
    }
    const byKey = new Map(candidates.map((tool) => [tool.toolKey, tool]));
    const picked = new Set<string>();
    const results: SearchResult[] = [];
    let dropped = 0;
    for (const entry of ranking.tools) {
      const tool = byKey.get(entry.toolKey);
      if (!tool || picked.has(tool.toolKey) || !Number.isFinite(entry.relevance)) {
        dropped += 1;
        continue;
      }
      picked.add(tool.toolKey);
      const result: SearchResult = {
        toolKey: tool.toolKey,
        toolName: tool.toolName,
        serverName: tool.serverName,
        relevance: Math.min(1, Math.max(0, entry.relevance)),
      };
      if (tool.description) result.description = tool.description;
      const explanation = truncateText(entry.explanation ?? '', maxExplanationLength);
      if (explanation) result.explanation = explanation;
      results.push(result);
    }
    if (dropped > 0) this.logger.warn('llm ranking named unknown or repeated tools; dropped them', { dropped });
    // Stable: among equal relevance the model's order stands.
    results.sort((a, b) => b.relevance - a.relevance);
    return results.slice(0, maxResults);
  }

  private failureContext(client: OpenAI) {
    return {
      secrets: client.apiKey ? [client.apiKey] : [],
      baseUrl: client.baseURL ?? openAiDefaults.baseUrl,
      maxRetries: client.maxRetries,
      requestTimeoutMs: client.timeout,
      model: this.settings.model,
      settingNames: { apiKey: 'search.llm.apiKey', model: 'search.llm.model', baseUrl: 'search.llm.baseUrl' },
    };
  }

  private providerError(failure: OpenAiFailure, cause: unknown): SearchProviderError {
    const kinds: Record<OpenAiFailure['kind'], SearchProviderFailure> = {
      authentication: 'http',
      permission: 'http',
      'not-found': 'http',
      'rate-limit': 'http',
      quota: 'http',
      'bad-request': 'http',
      server: 'http',
      timeout: 'timeout',
      connection: 'network',
      cancelled: 'cancelled',
      'invalid-response': 'invalid-response',
      unknown: 'provider',
    };
    return new SearchProviderError({
      providerId: this.id,
      failure: kinds[failure.kind],
      message: `llm search: ${failure.message}`,
      ...(failure.status !== undefined ? { status: failure.status } : {}),
      cause,
    });
  }
}

/** Some OpenAI-compatible servers wrap JSON in a markdown fence even when asked for a schema. */
function withoutCodeFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return fenced?.[1] ?? text;
}
