import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'ToolNotFoundError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/** No visible tool has this name or key. `suggestions` holds the closest keys, best first. */
export class ToolNotFoundError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly toolName: string;
  readonly suggestions: readonly string[];

  constructor(options: { toolName: string; suggestions?: readonly string[]; message?: string; cause?: unknown }) {
    super({
      name,
      code: 'TOOL_NOT_FOUND',
      jsonRpcCode: JsonRpcErrorCode.InvalidParams,
      statusCode: 404,
      isRetryable: false,
      message: options.message ?? `Tool not found: ${options.toolName}`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.suggestions = options.suggestions ?? [];
  }

  static override isInstance(error: unknown): error is ToolNotFoundError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
