import { errorDetail } from './token-refusal.js';

/** The outcome of one request to the authorization server: never thrown, so each caller words its own refusal. */
export type JsonAnswer =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'not-json'; status: number; detail: string }
  | { kind: 'unreachable'; detail: string };

/**
 * One request that gives up after `timeoutMs`, the body included (a server that sends headers and then stalls is as
 * slow as one that never answers). Redirects are not followed: metadata, keys and introspection answer directly.
 */
export async function fetchJson(
  fetchImplementation: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<JsonAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchImplementation(url, { ...init, signal, redirect: 'manual' });
  } catch (error) {
    return { kind: 'unreachable', detail: describeFailure(error, url, timeoutMs) };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return { kind: 'unreachable', detail: describeFailure(error, url, timeoutMs) };
  }
  try {
    return { kind: 'json', status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'not-json', status: response.status, detail: `${url} answered ${response.status} with no JSON` };
  }
}

function describeFailure(error: unknown, url: string, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `${url} did not answer within ${timeoutMs} ms`;
  return `${url}: ${errorDetail(error)}`;
}

/** A JSON object (not an array, not null), as every answer of the authorization server must be. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
