/**
 * Anything thrown while a search ran, as the `WebSearchError` a user reads: the caller's cancellation, the overall
 * time limit, or what the OpenAI request failed on (`describeOpenAiFailure`) with a hint at the settings to check.
 */
import { describeOpenAiFailure, type OpenAiFailure, type OpenAiFailureContext } from '../client/openai-failure.js';
import { WebSearchError, type WebSearchErrorKind } from './web-search-error.js';

export interface SearchFailureContext {
  /** The caller (or `close()`) aborted. */
  cancelled: boolean;
  /** The overall time limit passed. */
  timedOut: boolean;
  timeoutMs: number;
  responseId?: string;
  lastStatus: string;
  background: boolean;
  openai: OpenAiFailureContext;
}

const kinds: Record<OpenAiFailure['kind'], WebSearchErrorKind> = {
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

export function searchFailure(error: unknown, context: SearchFailureContext): WebSearchError {
  if (WebSearchError.isInstance(error)) return error;
  const responseId = context.responseId ? { requestId: context.responseId } : {};
  if (context.cancelled) {
    return new WebSearchError({
      kind: 'cancelled',
      message: context.responseId
        ? `The search was cancelled; the OpenAI response ${context.responseId} is being cancelled too.`
        : 'The search was cancelled before OpenAI started it.',
      ...responseId,
    });
  }
  if (context.timedOut) {
    return new WebSearchError({
      kind: 'timeout',
      message:
        `The search did not finish within ${duration(context.timeoutMs)} (last status: ` +
        `${context.lastStatus.replace('_', ' ')}) and was cancelled at OpenAI. Try a narrower query or a ` +
        'lower REASONING_EFFORT, or allow more time with WEB_SEARCH_TIMEOUT_MS.',
      ...responseId,
    });
  }
  const described = describeOpenAiFailure(error, context.openai);
  const hint =
    described.kind === 'bad-request'
      ? ' Check OPENAI_MODEL (the model must support the web_search tool in the Responses API' +
        `${context.background ? ' and background mode; WEB_SEARCH_BACKGROUND=false turns that off' : ''}), ` +
        'REASONING_EFFORT and SEARCH_CONTEXT_SIZE.'
      : '';
  return new WebSearchError({
    kind: kinds[described.kind],
    message: `${described.message}${hint}`,
    ...(described.status !== undefined ? { status: described.status } : {}),
    ...(described.retryAfterSeconds !== undefined ? { retryAfterSeconds: described.retryAfterSeconds } : {}),
    ...(described.requestId !== undefined ? { requestId: described.requestId } : {}),
    cause: error,
  });
}

function duration(ms: number): string {
  return ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
