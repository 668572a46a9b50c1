import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { formatIssues, type Issue } from './issue.js';
import { SearchMcpError } from './search-mcp-error.js';

const name = 'ValidationError';
const marker = `search-mcp.error.${name}`;
const symbol = Symbol.for(marker);

/** Input (tool arguments, request bodies) does not match what is expected. Lists every problem at once. */
export class ValidationError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;
  readonly issues: readonly Issue[];

  constructor(options: { issues: readonly Issue[]; message?: string; cause?: unknown }) {
    super({
      name,
      code: 'VALIDATION_ERROR',
      jsonRpcCode: JsonRpcErrorCode.InvalidParams,
      statusCode: 400,
      isRetryable: false,
      message: options.message ?? `Invalid arguments: ${formatIssues(options.issues)}`,
      cause: options.cause,
    });
    this.issues = options.issues;
  }

  static override isInstance(error: unknown): error is ValidationError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
