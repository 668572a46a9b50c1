import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'ToolDisabledError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/** The tool exists but is switched off (`toolPermissions`, a disabled server or registry tool). */
export class ToolDisabledError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly toolName: string;

  constructor(options: { toolName: string; reason?: string; cause?: unknown }) {
    const reason = options.reason ? ` (${options.reason})` : '';
    super({
      name,
      code: 'TOOL_DISABLED',
      jsonRpcCode: JsonRpcErrorCode.InvalidParams,
      statusCode: 403,
      isRetryable: false,
      message: `Tool is disabled: ${options.toolName}${reason}`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is ToolDisabledError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
