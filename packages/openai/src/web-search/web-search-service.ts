/**
 * The web search of `search-mcp-web-search` on the Responses API (packages/openai/README.md, "Web search"): o3 with the
 * hosted `web_search` tool, run in background mode and polled (o3 searches take from 30 s to several minutes; one long
 * HTTP request would be cut by proxies and leaves nothing to cancel), with progress after every poll, cancellation
 * passed on to OpenAI, and an overall time limit.
 */
import { silentLogger } from '@search-mcp/shared';
import type OpenAI from 'openai';
import type {
  Response as OpenAiResponse,
  ResponseCreateParamsNonStreaming,
} from 'openai/resources/responses/responses';
import { delay, untilAborted } from '../client/abortable.js';
import { openAiDefaults } from '../client/openai-client.js';
import { describeOpenAiFailure, type OpenAiFailureContext } from '../client/openai-failure.js';
import { checkedResponse, isTerminal, outcomeOfResponse } from './finished-response.js';
import { WebSearchError } from './web-search-error.js';
import { searchFailure } from './web-search-failure.js';
import { webSearchInput, webSearchInstructions } from './web-search-prompt.js';
import type { WebSearchServiceSettings } from './web-search-service-settings.js';
import { resolveWebSearchClient } from './web-search-setup.js';
import { webSearchLimits } from './web-search-tool.js';
import type {
  WebSearchCallOptions,
  WebSearchOutcome,
  WebSearchParams,
  WebSearchProgress,
  WebSearchService,
} from './web-search-types.js';

export const webSearchDefaults = {
  model: 'o3',
  /** The whole search, from creation to the last poll. */
  timeoutMs: 300_000,
  pollIntervalMs: 2_000,
  background: true,
  /** Cancelling a response is one short request, sent even after the caller has gone. */
  cancelTimeoutMs: 10_000,
} as const;

interface RunState {
  responseId?: string;
  lastStatus: string;
  settled: boolean;
}

export function createWebSearchService(settings: WebSearchServiceSettings = {}): WebSearchService {
  const logger = settings.logger ?? silentLogger;
  const model = settings.model ?? webSearchDefaults.model;
  const timeoutMs = settings.timeoutMs ?? webSearchDefaults.timeoutMs;
  const pollIntervalMs = settings.pollIntervalMs ?? webSearchDefaults.pollIntervalMs;
  const background = settings.background ?? webSearchDefaults.background;
  const now = settings.now ?? (() => new Date());
  const { client, setupError } = resolveWebSearchClient(settings, logger);
  /** Searches in flight: how to stop each, and when it has unwound. */
  const running = new Map<AbortController, Promise<unknown>>();
  const pendingCancels = new Set<Promise<void>>();

  const secrets = client?.apiKey ? [client.apiKey] : [];
  const failureContext: OpenAiFailureContext = {
    secrets,
    baseUrl: client?.baseURL ?? openAiDefaults.baseUrl,
    maxRetries: client?.maxRetries ?? openAiDefaults.maxRetries,
    requestTimeoutMs: client?.timeout ?? openAiDefaults.requestTimeoutMs,
    model,
  };

  /** Cancels a background response at OpenAI; `close()` waits for it. Never throws. */
  function cancelAtOpenAi(openai: OpenAI, responseId: string, why: string): void {
    const cancel = openai.responses
      .cancel(responseId, { timeout: webSearchDefaults.cancelTimeoutMs, maxRetries: 1 })
      .then(
        () => logger.info('web search response cancelled at OpenAI', { responseId, why }),
        (error: unknown) =>
          logger.warn('could not cancel the web search response at OpenAI', {
            responseId,
            why,
            error: describeOpenAiFailure(error, failureContext).message,
          }),
      )
      .finally(() => pendingCancels.delete(cancel));
    pendingCancels.add(cancel);
  }

  function search(params: WebSearchParams, options: WebSearchCallOptions = {}): Promise<WebSearchOutcome> {
    const controller = new AbortController();
    const run = runSearch(params, options, controller);
    const unwound = run.then(
      () => {},
      () => {},
    );
    running.set(controller, unwound);
    void unwound.then(() => running.delete(controller));
    return run;
  }

  async function runSearch(
    params: WebSearchParams,
    options: WebSearchCallOptions,
    controller: AbortController,
  ): Promise<WebSearchOutcome> {
    const query = typeof params.query === 'string' ? params.query.trim() : '';
    if (query === '') {
      throw new WebSearchError({
        kind: 'empty-query',
        message: 'The query is empty: say what to search for, e.g. { "query": "latest Node.js LTS release" }.',
      });
    }
    if (setupError || !client) throw setupError ?? new WebSearchError({ kind: 'internal', message: 'no client' });
    const limit = Math.min(
      webSearchLimits.maxLimit,
      Math.max(1, Math.trunc(params.limit ?? webSearchLimits.defaultLimit)),
    );

    const onCallerAbort = () => controller.abort(new Error('cancelled by the caller'));
    if (options.signal?.aborted) onCallerAbort();
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([controller.signal, timeout]);

    const started = Date.now();
    let lastProgress = 0;
    const report = (status: string) => {
      const seconds = (Date.now() - started) / 1000;
      lastProgress = Math.max(Math.round(seconds * 10) / 10, lastProgress + 0.1);
      const progress: WebSearchProgress = {
        progress: Math.round(lastProgress * 10) / 10,
        message: `OpenAI web search ${status.replace('_', ' ')} (${Math.round(seconds)} s)`,
      };
      options.onProgress?.(progress);
    };

    const body: ResponseCreateParamsNonStreaming = {
      model,
      instructions: webSearchInstructions,
      input: webSearchInput({ ...params, query }, limit, now()),
      tools: [
        {
          type: 'web_search',
          ...(settings.searchContextSize ? { search_context_size: settings.searchContextSize } : {}),
        },
      ],
      ...(settings.reasoningEffort ? { reasoning: { effort: settings.reasoningEffort } } : {}),
      ...(background ? { background: true, store: true } : {}),
    };
    const state: RunState = { lastStatus: 'starting', settled: false };
    logger.debug('web search started', { model, limit, background, queryLength: query.length });
    try {
      const response = background
        ? await runInBackground(client, body, signal, state, report)
        : await runInForeground(client, body, signal, state, report, timeoutMs);
      const outcome = outcomeOfResponse(response, { query, limit, model, secrets });
      logger.info('web search finished', {
        responseId: response.id,
        model: response.model,
        results: outcome.results.length,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        ...(response.usage
          ? { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens }
          : {}),
      });
      return outcome;
    } catch (error) {
      const converted = searchFailure(error, {
        cancelled: controller.signal.aborted,
        timedOut: timeout.aborted,
        timeoutMs,
        ...(state.responseId ? { responseId: state.responseId } : {}),
        lastStatus: state.lastStatus,
        background,
        openai: failureContext,
      });
      if (background && state.responseId && !state.settled) {
        cancelAtOpenAi(client, state.responseId, converted.kind);
      }
      logger.warn('web search failed', { kind: converted.kind, message: converted.message });
      throw converted;
    } finally {
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  async function runInBackground(
    openai: OpenAI,
    body: ResponseCreateParamsNonStreaming,
    signal: AbortSignal,
    state: RunState,
    report: (status: string) => void,
  ): Promise<OpenAiResponse> {
    // No signal for the creation itself: aborted mid-request, it would leave a running response whose id we never
    // learn. Its answer is awaited even after a cancellation, to cancel what it started.
    const creation = openai.responses.create(body);
    let response: OpenAiResponse;
    try {
      response = checkedResponse(await untilAborted(creation, signal));
    } catch (error) {
      if (signal.aborted) {
        const followUp: Promise<void> = creation
          .then(
            (created) => {
              if (!isTerminal(created.status)) cancelAtOpenAi(openai, created.id, 'cancelled while being created');
            },
            () => {},
          )
          .finally(() => pendingCancels.delete(followUp));
        pendingCancels.add(followUp);
      }
      throw error;
    }
    state.responseId = response.id;
    state.lastStatus = response.status ?? 'queued';
    report(state.lastStatus);
    while (!isTerminal(response.status)) {
      await delay(pollIntervalMs, signal);
      response = checkedResponse(await untilAborted(openai.responses.retrieve(response.id, {}, { signal }), signal));
      state.lastStatus = response.status ?? state.lastStatus;
      if (!isTerminal(response.status)) report(state.lastStatus);
    }
    state.settled = true;
    return response;
  }

  async function runInForeground(
    openai: OpenAI,
    body: ResponseCreateParamsNonStreaming,
    signal: AbortSignal,
    state: RunState,
    report: (status: string) => void,
    limitMs: number,
  ): Promise<OpenAiResponse> {
    report('in_progress');
    const heartbeat = setInterval(() => report('in_progress'), Math.max(pollIntervalMs, 250));
    try {
      const response = checkedResponse(
        await untilAborted(openai.responses.create(body, { signal, timeout: limitMs }), signal),
      );
      state.settled = true;
      return response;
    } finally {
      clearInterval(heartbeat);
    }
  }

  return {
    search,
    async close() {
      for (const controller of running.keys()) controller.abort(new Error('the web search service is closing'));
      // Aborted searches unwind at once and queue the cancellation of their responses: wait until those were sent.
      await Promise.allSettled([...running.values()]);
      while (pendingCancels.size > 0) await Promise.allSettled([...pendingCancels]);
    },
  };
}
