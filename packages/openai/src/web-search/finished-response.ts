/**
 * A finished response (`completed`, `failed`, `incomplete`, `cancelled`) as the search's outcome, or as the error
 * that says what happened. Also the check that an answer is a response object at all.
 */
import type { Response as OpenAiResponse } from 'openai/resources/responses/responses';
import { redactSecrets } from '../client/secret-redaction.js';
import { citedResults, refusalOf } from './citation-results.js';
import { WebSearchError } from './web-search-error.js';
import type { WebSearchOutcome } from './web-search-types.js';

export interface OutcomeContext {
  query: string;
  limit: number;
  /** The model asked for, when the response names none. */
  model: string;
  /** Removed from OpenAI's error texts. */
  secrets: readonly string[];
}

/** @throws WebSearchError for a refusal, a failed, cancelled or unusable incomplete response. */
export function outcomeOfResponse(response: OpenAiResponse, context: OutcomeContext): WebSearchOutcome {
  const { query, limit } = context;
  const base = { query, model: response.model ?? context.model, responseId: response.id };
  const refusal = refusalOf(response);
  if (refusal) {
    throw new WebSearchError({
      kind: 'refusal',
      message: `The model declined this search: ${refusal.trim()} Rephrase the query if it was misread.`,
      requestId: response.id,
    });
  }
  if (response.status === 'failed') throw failedResponseError(response, context.secrets);
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

function failedResponseError(response: OpenAiResponse, secrets: readonly string[]): WebSearchError {
  const code = response.error?.code ?? 'unknown';
  const said = response.error?.message ? `: ${response.error.message}` : '';
  const message = redactSecrets(`${code}${said}`, secrets);
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

export function isTerminal(status: string | undefined): boolean {
  return status === 'completed' || status === 'failed' || status === 'incomplete' || status === 'cancelled';
}

/** A response object, or an error saying the endpoint sent something else (an HTML page, `{}`). */
export function checkedResponse(value: unknown): OpenAiResponse {
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
