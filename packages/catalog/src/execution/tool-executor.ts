import { delay, SearchMcpError, TimeoutError, type ToolCallResult, untilAborted } from '@search-mcp/shared';

export interface ToolExecutorOptions {
  /** Extra attempts after a retryable failure (`isRetryable`: server not running, rate limited). Default 2. */
  retries?: number;
  /** Wait before the first retry; doubles each time. Default 300 ms. */
  retryDelayMs?: number;
}

export interface ExecutionOptions {
  signal?: AbortSignal;
  /** A limit for the whole execution including retries; a backend's own per-call timeout applies inside it. */
  timeoutMs?: number;
}

/**
 * Runs a call with the catalog's execution rules (packages/catalog/README.md, "ToolCatalog"): a time limit, and
 * retries of retryable failures only. Retryable
 * means the call never reached a backend (`ServerNotRunningError` while it reconnects, `RateLimitError`), so a
 * retry cannot run a tool twice; a timeout or a backend error is never retried.
 */
export class ToolExecutor {
  private readonly retries: number;
  private readonly retryDelayMs: number;

  constructor(options: ToolExecutorOptions = {}) {
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 300;
  }

  /**
   * Not an async function, and no array of signals: every forwarded call comes this way. The first attempt's promise
   * is handed on with one reaction for its failure (an async loop would cost a promise and turns more per call).
   */
  execute(
    run: (signal: AbortSignal) => Promise<ToolCallResult>,
    options: ExecutionOptions = {},
  ): Promise<ToolCallResult> {
    const timeout = options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined;
    const signal = options.signal
      ? timeout
        ? AbortSignal.any([options.signal, timeout])
        : options.signal
      : (timeout ?? new AbortController().signal);
    const attempt = (index: number): Promise<ToolCallResult> => {
      let running: Promise<ToolCallResult>;
      try {
        running = run(signal);
      } catch (error) {
        running = Promise.reject(error);
      }
      return untilAborted(running, signal, (aborted) => abortReason(aborted, timeout, options.timeoutMs)).catch(
        (error: unknown) => this.afterFailure(error, index, signal, timeout, options).then(() => attempt(index + 1)),
      );
    };
    return attempt(0);
  }

  /** Resolves when a failed attempt is to be retried (after the backoff), else rejects with what the caller gets. */
  private async afterFailure(
    error: unknown,
    attempt: number,
    signal: AbortSignal,
    timeout: AbortSignal | undefined,
    options: ExecutionOptions,
  ): Promise<void> {
    if (timeout?.aborted && !options.signal?.aborted) {
      throw new TimeoutError({
        timeoutMs: options.timeoutMs ?? 0,
        message: `Tool call did not finish within ${options.timeoutMs} ms`,
        cause: error,
      });
    }
    const retryable = SearchMcpError.isInstance(error) && error.isRetryable;
    if (!retryable || attempt >= this.retries || signal.aborted) throw error;
    await delay(this.retryDelayMs * 2 ** attempt, signal);
  }
}

function abortReason(signal: AbortSignal, timeout: AbortSignal | undefined, timeoutMs: number | undefined): unknown {
  if (timeout?.aborted && signal.reason === timeout.reason) {
    return new TimeoutError({ timeoutMs: timeoutMs ?? 0, message: `Tool call did not finish within ${timeoutMs} ms` });
  }
  return signal.reason;
}
