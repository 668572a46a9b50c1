import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'SearchProviderError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

export type SearchProviderFailure = 'timeout' | 'network' | 'http' | 'invalid-response' | 'cancelled' | 'provider';

/**
 * A search provider could not answer (a cloud search service timed out, failed, or sent something invalid).
 * `FallbackSearchProvider` catches it and asks the next provider. Retryable on timeout, network failure or 5xx.
 */
export class SearchProviderError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly providerId: string;
  readonly failure: SearchProviderFailure;
  /** HTTP status of the search service, when it answered with one. */
  readonly status?: number;

  constructor(options: {
    providerId: string;
    failure: SearchProviderFailure;
    message: string;
    status?: number;
    cause?: unknown;
  }) {
    super({
      name,
      code: 'SEARCH_PROVIDER_ERROR',
      jsonRpcCode: JsonRpcErrorCode.InternalError,
      statusCode: 502,
      isRetryable: options.failure === 'timeout' || options.failure === 'network' || (options.status ?? 0) >= 500,
      message: options.message,
      cause: options.cause,
    });
    this.providerId = options.providerId;
    this.failure = options.failure;
    if (options.status !== undefined) this.status = options.status;
  }

  static override isInstance(error: unknown): error is SearchProviderError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
