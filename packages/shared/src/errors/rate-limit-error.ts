import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'RateLimitError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/** Too many requests. Retryable: the request was refused before anything ran. */
export class RateLimitError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;

  constructor(options: { message?: string; cause?: unknown } = {}) {
    super({
      name,
      code: 'RATE_LIMIT_EXCEEDED',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 429,
      isRetryable: true,
      message: options.message ?? 'Rate limit exceeded',
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is RateLimitError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
