import { isRecord } from '../text/is-record.js';

/**
 * Multi-round-trip requests (MCP 2026-07-28, `basic/patterns/mrtr`): instead of sending requests to the client
 * while it works, a backend answers `tools/call`, `prompts/get` or `resources/read` with `resultType:
 * "input_required"`, and the caller retries the same request with the answers. Kept structural (no SDK types) so
 * the catalog and meta-tools can carry it.
 */

/** The requests whose results may be `input_required`. */
export const inputRequiredMethods: readonly string[] = ['tools/call', 'prompts/get', 'resources/read'];

/** One request the backend wants fulfilled first: `elicitation/create`, `sampling/createMessage`, `roots/list`. */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A backend's answer asking for input, as it sent it (nothing fulfilled on the way). */
export interface InputRequiredResult {
  resultType: 'input_required';
  /** Keyed by the backend's own identifiers; the retry's `inputResponses` uses the same keys. */
  inputRequests: Record<string, InputRequest>;
  /** Opaque backend state the retry must echo verbatim. */
  requestState?: string;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * What a retry after `input_required` carries: the answers, keyed like the `inputRequests` they answer (bare
 * results: `{ action, content }` for an elicitation, `{ role, content, model }` for sampling, `{ roots }`), and the
 * `requestState` the backend sent, unchanged. Only a 2026-07-28 backend understands them: sending them to a 2025
 * backend is an error, never silently dropped.
 */
export interface InputRetry {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** Whether a result is a backend's `input_required` answer (to fulfil and retry) rather than a complete one. */
export function isInputRequiredResult(value: unknown): value is InputRequiredResult {
  return isRecord(value) && value.resultType === 'input_required';
}

/** Whether the options carry retry answers (either field present, even empty: the caller meant a retry). */
export function hasInputRetry(options: InputRetry | undefined): boolean {
  return options?.inputResponses !== undefined || options?.requestState !== undefined;
}
