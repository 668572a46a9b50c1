import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'ServerNotRunningError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The backend server is not connected (starting, crashed, stopped, failed). The call never reached it, so repeating
 * it is safe: retryable, unless the caller knows waiting cannot help (a broken config entry: `isRetryable: false`).
 */
export class ServerNotRunningError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly serverId: string;
  /** The server's state when the call was refused (a `ServerState`). */
  readonly state?: string;

  constructor(options: { serverId: string; state?: string; message?: string; isRetryable?: boolean; cause?: unknown }) {
    super({
      name,
      code: 'SERVER_NOT_RUNNING',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 503,
      isRetryable: options.isRetryable ?? true,
      message: options.message ?? `MCP server '${options.serverId}' is not running`,
      cause: options.cause,
    });
    this.serverId = options.serverId;
    if (options.state !== undefined) this.state = options.state;
  }

  static override isInstance(error: unknown): error is ServerNotRunningError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
