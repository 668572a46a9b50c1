import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'BackendError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The backend answered with a JSON-RPC error, or its connection broke during the call. `backendCode` and
 * `data` are the backend's own error fields when it sent any. Never retryable: the call reached the backend, which
 * may have acted on it, and JSON-RPC has no field saying a retry is safe.
 */
export class BackendError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly serverId: string;
  readonly backendCode?: number;
  readonly data?: unknown;

  constructor(options: { serverId: string; message: string; backendCode?: number; data?: unknown; cause?: unknown }) {
    super({
      name,
      code: 'BACKEND_ERROR',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 502,
      isRetryable: false,
      message: options.message,
      cause: options.cause,
    });
    this.serverId = options.serverId;
    if (options.backendCode !== undefined) this.backendCode = options.backendCode;
    if (options.data !== undefined) this.data = options.data;
  }

  static override isInstance(error: unknown): error is BackendError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
