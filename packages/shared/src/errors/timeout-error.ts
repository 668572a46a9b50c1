import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'TimeoutError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/** An operation took longer than allowed. Not retryable: a timed-out tool call may still have run. */
export class TimeoutError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly timeoutMs: number;

  constructor(options: { timeoutMs: number; message?: string; cause?: unknown }) {
    super({
      name,
      code: 'TIMEOUT',
      jsonRpcCode: JsonRpcErrorCode.RequestTimeout,
      statusCode: 408,
      isRetryable: false,
      message: options.message ?? `Timed out after ${options.timeoutMs} ms`,
      cause: options.cause,
    });
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is TimeoutError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
