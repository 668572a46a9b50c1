import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError, type SearchMcpErrorOptions } from './search-mcp-error.js';

const name = 'AuthorizationError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/** Valid credentials that may not do this (e.g. a token not allowed for the requested project). */
export class AuthorizationError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;

  constructor(options: SearchMcpErrorOptions = { message: 'Forbidden' }) {
    super({
      name,
      code: 'AUTHORIZATION_ERROR',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 403,
      isRetryable: false,
      ...options,
    });
  }

  static override isInstance(error: unknown): error is AuthorizationError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
