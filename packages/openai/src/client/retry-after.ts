/**
 * The `Retry-After` side of the retry policy. Retrying itself (429, 408, 409, 5xx, network errors and timeouts;
 * exponential backoff from 0.5 s to 8 s with jitter; `retry-after-ms` and `Retry-After` honoured; at most
 * `maxRetries` retries) is the `openai` SDK's own. The SDK waits as long as the server asks, without a limit and
 * without noticing cancellation, so a `Retry-After: 3600` would hold a call for an hour. This fetch wrapper marks
 * such an answer `x-should-retry: false` (a header the SDK obeys): the call fails at once with the wait it was asked
 * for, and the caller says so instead of hanging.
 */

/** The wait a response asks for (`retry-after-ms`, else `Retry-After` in seconds or as an HTTP date), in ms. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
  const header = headers.get('retry-after');
  if (!header) return Number.isFinite(milliseconds) ? milliseconds : undefined;
  const seconds = Number.parseFloat(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Statuses the SDK retries (see `shouldRetry` in the SDK's client). */
function isRetriedStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Header set on answers whose `Retry-After` was over the limit, so the error can say the wait was not taken. */
export const retryAfterOverLimitHeader = 'x-search-mcp-retry-after-over-limit';

export function fetchWithRetryAfterLimit(base: typeof fetch, maxRetryAfterMs: number): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok || !isRetriedStatus(response.status)) return response;
    const wait = retryAfterMs(response.headers);
    if (wait === undefined || wait <= maxRetryAfterMs) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    headers.set(retryAfterOverLimitHeader, 'true');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
