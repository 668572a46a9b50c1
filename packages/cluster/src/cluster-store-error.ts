import { JsonRpcErrorCode, SearchMcpError } from '@search-mcp/shared';

const name = 'ClusterStoreError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The shared store failed: a `cluster.redis.url` that is no Redis URL, a Redis that cannot be reached at start, a
 * command that got no answer within the store's bound while Redis was away, or a call after `close()`. The message
 * names the store by its description (never its password). Retryable: Redis may be back on the next try.
 */
export class ClusterStoreError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;

  constructor(options: { message: string; cause?: unknown }) {
    super({
      name,
      code: 'BACKEND_ERROR',
      jsonRpcCode: JsonRpcErrorCode.InternalError,
      statusCode: 503,
      isRetryable: true,
      message: options.message,
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is ClusterStoreError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
