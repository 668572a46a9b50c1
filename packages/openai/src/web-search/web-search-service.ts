/**
 * The web search of seed 000 on the Responses API: o3 with the hosted `web_search` tool, run in background mode and
 * polled (o3 searches take from 30 s to several minutes; one long HTTP request would be cut by proxies and leaves
 * nothing to cancel), with progress after every poll, cancellation passed on to OpenAI, and an overall time limit.
 */
import { ConfigError, formatIssues, silentLogger, type Logger } from '@search-mcp/shared';
import type OpenAI from 'openai';
import type {
  Response as OpenAiResponse,
  ResponseCreateParamsNonStreaming,
} from 'openai/resources/responses/responses';
import type { ReasoningEffort } from 'openai/resources/shared';
import { delay, untilAborted } from '../client/abortable.js';
import { createOpenAiClient, openAiDefaults, type OpenAiClientSettings } from '../client/openai-client.js';
import { describeOpenAiFailure, type OpenAiFailure } from '../client/openai-failure.js';
import { redactSecrets } from '../client/secret-redaction.js';
import { citedResults, refusalOf } from './citation-results.js';
import { WebSearchError, type WebSearchErrorKind } from './web-search-error.js';
import { webSearchInput, webSearchInstructions } from './web-search-prompt.js';
import { apiKeySetupError, settingsSetupError } from './web-search-setup.js';
import { webSearchLimits } from './web-search-tool.js';
import type {
  WebSearchCallOptions,
  WebSearchOutcome,
  WebSearchParams,
  WebSearchProgress,
  WebSearchService,
} from './web-search-types.js';

export type SearchContextSize = 'low' | 'medium' | 'high';

export const webSearchDefaults = {
  model: 'o3',
  /** The whole search, from creation to the last poll. */
  timeoutMs: 300_000,
  pollIntervalMs: 2_000,
  background: true,
  /** Cancelling a response is one short request, sent even after the caller has gone. */
  cancelTimeoutMs: 10_000,
} as const;

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

interface ClientState {
  client?: OpenAI;
  setupError?: WebSearchError;
}

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
  const { client, setupError } = resolveClient(settings, logger);
  /** Searches in flight: how to stop each, and when it has unwound. */
  const running = new Map<AbortController, Promise<unknown>>();
  const pendingCancels = new Set<Promise<void>>();

  function failure(error: unknown): OpenAiFailure {
    return describeOpenAiFailure(error, {
      secrets: client?.apiKey ? [client.apiKey] : [],
      baseUrl: client?.baseURL ?? openAiDefaults.baseUrl,
      maxRetries: client?.maxRetries ?? openAiDefaults.maxRetries,
      requestTimeoutMs: client?.timeout ?? openAiDefaults.requestTimeoutMs,
      model,
    });
  }

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
            error: failure(error).message,
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
    const limit = Math.min(webSearchLimits.maxLimit, Math.max(1, Math.trunc(params.limit ?? 10)));

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
      const outcome = toOutcome(response, query, limit);
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
      const converted = toWebSearchError(error, {
        cancelled: controller.signal.aborted,
        timedOut: timeout.aborted,
        state,
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

  function toOutcome(response: OpenAiResponse, query: string, limit: number): WebSearchOutcome {
    const base = { query, model: response.model ?? model, responseId: response.id };
    const refusal = refusalOf(response);
    if (refusal) {
      throw new WebSearchError({
        kind: 'refusal',
        message: `The model declined this search: ${refusal.trim()} Rephrase the query if it was misread.`,
        requestId: response.id,
      });
    }
    if (response.status === 'failed') throw failedResponseError(response);
    if (response.status === 'cancelled') {
      throw new WebSearchError({
        kind: 'cancelled',
        message:
          'The OpenAI response was cancelled before it finished (not by this call: another client of the same ' +
          'key, or OpenAI). Try again.',
        requestId: response.id,
      });
    }
    const { results, total } = citedResults(response, limit);
    if (response.status === 'incomplete') {
      const reason = response.incomplete_details?.reason;
      if (reason === 'content_filter' || results.length === 0) throw incompleteResponseError(response);
      return {
        ...base,
        results,
        notice: `The answer was cut short (${reason ?? 'incomplete'}); these are the sources cited before that.`,
      };
    }
    if (total === 0) {
      return {
        ...base,
        results,
        notice: 'The model cited no sources for this query. Try other words, a wider timeframe, or language "auto".',
      };
    }
    return total > limit
      ? { ...base, results, notice: `${total} sources were cited; the first ${limit} are shown.` }
      : { ...base, results };
  }

  function toWebSearchError(
    error: unknown,
    context: { cancelled: boolean; timedOut: boolean; state: RunState },
  ): WebSearchError {
    if (WebSearchError.isInstance(error)) return error;
    if (context.cancelled) {
      return new WebSearchError({
        kind: 'cancelled',
        message: context.state.responseId
          ? `The search was cancelled; the OpenAI response ${context.state.responseId} is being cancelled too.`
          : 'The search was cancelled before OpenAI started it.',
        ...(context.state.responseId ? { requestId: context.state.responseId } : {}),
      });
    }
    if (context.timedOut) {
      return new WebSearchError({
        kind: 'timeout',
        message:
          `The search did not finish within ${duration(timeoutMs)} (last status: ` +
          `${context.state.lastStatus.replace('_', ' ')}) and was cancelled at OpenAI. Try a narrower query or a ` +
          'lower REASONING_EFFORT, or allow more time with WEB_SEARCH_TIMEOUT_MS.',
        ...(context.state.responseId ? { requestId: context.state.responseId } : {}),
      });
    }
    const described = failure(error);
    const kind: Record<OpenAiFailure['kind'], WebSearchErrorKind> = {
      authentication: 'authentication',
      permission: 'permission',
      'not-found': 'model-not-found',
      'rate-limit': 'rate-limit',
      quota: 'quota',
      'bad-request': 'bad-request',
      server: 'server',
      timeout: 'timeout',
      connection: 'connection',
      cancelled: 'cancelled',
      'invalid-response': 'invalid-response',
      unknown: 'internal',
    };
    const hint =
      described.kind === 'bad-request'
        ? ` Check OPENAI_MODEL (the model must support the web_search tool in the Responses API${background ? ' and background mode; WEB_SEARCH_BACKGROUND=false turns that off' : ''}), REASONING_EFFORT and SEARCH_CONTEXT_SIZE.`
        : '';
    return new WebSearchError({
      kind: kind[described.kind],
      message: `${described.message}${hint}`,
      ...(described.status !== undefined ? { status: described.status } : {}),
      ...(described.retryAfterSeconds !== undefined ? { retryAfterSeconds: described.retryAfterSeconds } : {}),
      ...(described.requestId !== undefined ? { requestId: described.requestId } : {}),
      cause: error,
    });
  }

  function failedResponseError(response: OpenAiResponse): WebSearchError {
    const code = response.error?.code ?? 'unknown';
    const said = response.error?.message ? `: ${response.error.message}` : '';
    const message = redactSecrets(`${code}${said}`, client?.apiKey ? [client.apiKey] : []);
    if (code === 'rate_limit_exceeded') {
      return new WebSearchError({
        kind: 'rate-limit',
        message: `The search failed at OpenAI on a rate limit (${message}). Try again later.`,
        requestId: response.id,
      });
    }
    return new WebSearchError({
      kind: 'failed',
      message: `The search failed at OpenAI (${message}).${code === 'server_error' ? " This is on OpenAI's side: try again." : ''}`,
      requestId: response.id,
    });
  }

  function incompleteResponseError(response: OpenAiResponse): WebSearchError {
    const reason = response.incomplete_details?.reason;
    const message =
      reason === 'content_filter'
        ? "The answer was stopped by OpenAI's content filter. Rephrase the query."
        : `The model stopped before citing any source (${reason ?? 'incomplete'}): its output budget went to ` +
          'reasoning. Try a narrower query, a lower limit, or REASONING_EFFORT=low.';
    return new WebSearchError({ kind: 'incomplete', message, requestId: response.id });
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

function resolveClient(settings: WebSearchServiceSettings, logger: Logger): ClientState {
  const problems = settings.setupProblems ?? [];
  const keyError = settings.client ? undefined : apiKeySetupError(settings.openai?.apiKey);
  if (keyError) {
    if (problems.length === 0) return { setupError: keyError };
    const message = `${keyError.message}\nAlso fix: ${problems.join('; ')}.`;
    return { setupError: new WebSearchError({ kind: keyError.kind, message }) };
  }
  if (problems.length > 0) return { setupError: settingsSetupError(problems) };
  if (settings.client) return { client: settings.client };
  try {
    return { client: createOpenAiClient({ ...settings.openai, apiKey: settings.openai?.apiKey ?? '', logger }) };
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    return { setupError: settingsSetupError([formatIssues(error.issues)]) };
  }
}

function duration(ms: number): string {
  return ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function isTerminal(status: string | undefined): boolean {
  return status === 'completed' || status === 'failed' || status === 'incomplete' || status === 'cancelled';
}

/** A response object, or an error saying the endpoint sent something else (an HTML page, `{}`). */
function checkedResponse(value: unknown): OpenAiResponse {
  const candidate = value as Partial<OpenAiResponse> | null;
  if (candidate && typeof candidate.id === 'string' && typeof candidate.status === 'string') {
    return candidate as OpenAiResponse;
  }
  throw new WebSearchError({
    kind: 'invalid-response',
    message:
      'The endpoint answered without a response object (no id or status). Is OPENAI_BASE_URL an ' +
      'OpenAI-compatible server with the Responses API?',
  });
}
