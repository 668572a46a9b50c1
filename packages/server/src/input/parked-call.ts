import { randomUUID } from 'node:crypto';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { isRecord, type ToolCallResult, type ToolProgress } from '@search-mcp/shared';
import type { ReverseMethod } from '../sessions/reverse-request-attribution.js';
import { JsonRpcWireError } from '../wire-errors.js';

/** One request the client is asked in an `input_required` result (an embedded `elicitation/create`, …). */
export interface EmbeddedRequest {
  method: ReverseMethod;
  params?: Record<string, unknown>;
}

/** What a call has for the client now: its result, its failure, or questions. */
export type CallOutcome<T = ToolCallResult> =
  | { kind: 'complete'; result: T }
  | { kind: 'failed'; error: unknown }
  | { kind: 'input'; inputRequests: Record<string, EmbeddedRequest> };

/** The front request a parked call currently serves (2026-07-28: each round is a new request). */
export interface CallAttachment {
  signal: AbortSignal;
  /** What this request's envelope says the client can answer. */
  clientCapabilities: ClientCapabilities | undefined;
  onProgress: ((progress: ToolProgress) => void) | undefined;
}

/** How long a call with no parked question waits for the retry (the longest default question wait). */
const defaultWaitMs = 600_000;

interface Ask {
  request: EmbeddedRequest;
  timeoutMs: number;
  resolve(result: Record<string, unknown>): void;
  reject(error: unknown): void;
}

/**
 * A backend call of a 2026-07-28 client that a 2025 backend interrupts with a push request (elicitation, sampling,
 * roots) — the "hub" of `docs/design/protocol-eras.md` §4. The call runs on its own abort signal, so it outlives the
 * front request that started it: the push request is parked here, the front request is answered `input_required`,
 * and the client's retry (a new request) answers it and waits on the same call again. Cancelling the attached front request cancels
 * the call; while no request is attached, the call is dropped (the backend cancelled) after the longest wait its
 * parked questions allow.
 */
export class ParkedCall<T = ToolCallResult> {
  readonly id = randomUUID();
  private readonly controller = new AbortController();
  private readonly asks = new Map<string, Ask>();
  private asked = 0;
  private settled: CallOutcome<T> | undefined;
  private waiters: Array<() => void> = [];
  private attachment: CallAttachment | undefined;
  private detachAbort: (() => void) | undefined;
  private dropTimer: NodeJS.Timeout | undefined;
  private dropListener: ((reason: string) => void) | undefined;

  /** @param onDrop told when the call is given up (no retry in time), to forget it */
  constructor(private readonly onDrop: (call: { readonly id: string }, reason: string) => void) {
    // A cancelled call asks nothing more: its questions fail at once, and its outcome is its failure.
    this.controller.signal.addEventListener('abort', () => this.failAsks('The call was cancelled'), { once: true });
  }

  /** The call's own abort signal: hand it to the backend call instead of the front request's. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether a retry can still continue it (not dropped, not cancelled). */
  get open(): boolean {
    return !this.controller.signal.aborted;
  }

  /** The backend call (a tool call, a `prompts/get`, a `resources/read`): its outcome is kept until a request takes it. */
  run(call: Promise<T>): void {
    call.then(
      (result) => this.settle({ kind: 'complete', result }),
      (error: unknown) => this.settle({ kind: 'failed', error }),
    );
  }

  /** What the front request attached now may answer (its envelope's capabilities). */
  clientCapabilities(): ClientCapabilities | undefined {
    return this.attachment?.clientCapabilities;
  }

  /** A backend's progress: to the front request attached now, if it asked for progress. */
  progress(progress: ToolProgress): void {
    this.attachment?.onProgress?.(progress);
  }

  /**
   * Parks a backend's push request until a retry brings the client's answer. Rejects when the backend cancels it,
   * the call is dropped, or `timeoutMs` (how long the client may take) passes without a front request attached.
   */
  ask(
    method: ReverseMethod,
    params: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<Record<string, unknown>> {
    if (!this.open) return Promise.reject(new JsonRpcWireError(-32603, 'The client request this call served is gone'));
    this.asked += 1;
    const key = `${method.split('/')[0]}-${this.asked}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.asks.delete(key);
        reject(new JsonRpcWireError(-32603, 'The request was cancelled'));
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      this.asks.set(key, {
        request: { method, params: embeddedParams(method, params) },
        timeoutMs: options.timeoutMs,
        resolve: (result) => {
          options.signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          options.signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      this.notify();
    });
  }

  /** A front request takes the call: its cancellation cancels the call; the drop timer stops. */
  attach(attachment: CallAttachment): void {
    this.detach();
    clearTimeout(this.dropTimer);
    this.dropTimer = undefined;
    this.attachment = attachment;
    const onAbort = () => this.controller.abort(attachment.signal.reason);
    if (attachment.signal.aborted) onAbort();
    attachment.signal.addEventListener('abort', onAbort, { once: true });
    this.detachAbort = () => attachment.signal.removeEventListener('abort', onAbort);
  }

  /**
   * The front request is answered `input_required`: the call waits for the retry, at most as long as its longest
   * parked question allows (`onDropped` hears when it gave up).
   */
  release(onDropped?: (reason: string) => void): void {
    this.dropListener = onDropped;
    this.detach();
    const waits = [...this.asks.values()].map((ask) => ask.timeoutMs);
    // No question left (the backend withdrew it): the result waits for the retry as long as a question would.
    const waitMs = waits.length > 0 ? Math.max(...waits) : defaultWaitMs;
    clearTimeout(this.dropTimer);
    this.dropTimer = setTimeout(() => this.drop(`no retry within ${waitMs} ms`), waitMs);
    this.dropTimer.unref();
  }

  /**
   * Gives the parked questions the client's answers (`inputResponses`, by the keys of our `inputRequests`). A
   * question without an answer stays parked and is asked again.
   */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, response] of Object.entries(responses ?? {})) {
      const ask = this.asks.get(key);
      if (!ask || !isRecord(response)) continue;
      this.asks.delete(key);
      ask.resolve(response);
    }
  }

  /** Resolves when the call completes or fails, or has questions for the client (all of them, each time). */
  async outcome(): Promise<CallOutcome<T>> {
    for (;;) {
      if (this.settled) return this.settled;
      if (this.asks.size > 0) {
        const inputRequests: Record<string, EmbeddedRequest> = {};
        for (const [key, ask] of this.asks) inputRequests[key] = ask.request;
        return { kind: 'input', inputRequests };
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
      });
    }
  }

  /** Gives the call up: the backend call is cancelled, its parked questions answered with an error. */
  drop(reason: string): void {
    clearTimeout(this.dropTimer);
    this.detach();
    const error = new JsonRpcWireError(-32001, `The client did not answer in time (${reason})`);
    for (const ask of this.asks.values()) ask.reject(error);
    this.asks.clear();
    if (this.open) this.controller.abort(error);
    this.onDrop(this, reason);
    this.dropListener?.(reason);
  }

  /** Done with it: the outcome went to the client. */
  finish(): void {
    clearTimeout(this.dropTimer);
    this.detach();
  }

  private detach(): void {
    this.detachAbort?.();
    this.detachAbort = undefined;
    this.attachment = undefined;
  }

  private settle(outcome: CallOutcome<T>): void {
    this.settled = outcome;
    // Questions the backend no longer waits for (it finished) are not asked.
    this.failAsks('The call already ended');
    this.notify();
  }

  private failAsks(message: string): void {
    // Most calls end without ever asking: no error (and its stack) to build for them.
    if (this.asks.size === 0) return;
    const error = new JsonRpcWireError(-32603, message);
    for (const ask of this.asks.values()) ask.reject(error);
    this.asks.clear();
  }

  private notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/**
 * A push request's params as a 2026-07-28 embedded request: without the backend's `_meta` (its related-task and
 * progress keys mean nothing to the client) and, for URL elicitation, without `elicitationId` (2026 has none: the
 * client learns the outcome by retrying).
 */
function embeddedParams(method: ReverseMethod, params: Record<string, unknown>): Record<string, unknown> | undefined {
  const { _meta: _dropped, ...rest } = params;
  if (method === 'roots/list') return Object.keys(rest).length > 0 ? rest : undefined;
  if (method === 'elicitation/create' && rest.mode === 'url') {
    const { elicitationId: _id, ...url } = rest;
    return url;
  }
  return rest;
}
