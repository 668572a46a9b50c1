import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError, type SearchMcpErrorOptions } from './search-mcp-error.js';

const name = 'AuthenticationError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/** No credentials, or credentials that match no configured token. */
export class AuthenticationError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;

  constructor(options: SearchMcpErrorOptions = { message: 'Authentication required' }) {
    super({
      name,
      code: 'AUTHENTICATION_ERROR',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 401,
      isRetryable: false,
      ...options,
    });
  }

  static override isInstance(error: unknown): error is AuthenticationError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
