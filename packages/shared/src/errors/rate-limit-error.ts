import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'RateLimitError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * Too many requests. Retryable: the request was refused before anything ran. A refusal of `security.rateLimits`
 * (docs/trust.md, "Rate limits") says when to try again (`retryAfterMs`) and which limit refused (`limit`, its config
 * path, e.g. `security.rateLimits.perToken`).
 */
export class RateLimitError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;

  /** How long until the call would be let through (milliseconds); absent when unknown. */
  readonly retryAfterMs?: number;
  /** The limit that refused, as its config path; absent when unknown. */
  readonly limit?: string;

  constructor(options: { message?: string; cause?: unknown; retryAfterMs?: number; limit?: string } = {}) {
    super({
      name,
      code: 'RATE_LIMIT_EXCEEDED',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 429,
      isRetryable: true,
      message: options.message ?? 'Rate limit exceeded',
      cause: options.cause,
    });
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.limit !== undefined) this.limit = options.limit;
  }

  static override isInstance(error: unknown): error is RateLimitError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
