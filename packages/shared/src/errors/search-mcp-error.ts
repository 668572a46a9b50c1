/**
 * The base of every local error of Search MCP. Each carries a string `code`, the JSON-RPC code it maps to on the
 * wire and the HTTP status it maps to in the REST API. Wire translation happens at the edges (meta-tools,
 * http-server); libraries throw these.
 *
 * `instanceof` breaks when two copies of this package are loaded (a host bundling its own), so every class
 * carries a `Symbol.for` marker and a static `isInstance` that checks the marker instead.
 */

const marker = 'search-mcp.error';
const symbol = Symbol.for(marker);

export type SearchMcpErrorCode =
  | 'CONFIG_ERROR'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_DISABLED'
  | 'VALIDATION_ERROR'
  | 'SERVER_NOT_RUNNING'
  | 'BACKEND_ERROR'
  | 'BACKEND_AUTHORIZATION_ERROR'
  | 'TIMEOUT'
  | 'AUTHENTICATION_ERROR'
  | 'AUTHORIZATION_ERROR'
  | 'RATE_LIMIT_EXCEEDED'
  | 'SEARCH_PROVIDER_ERROR';

export interface SearchMcpErrorOptions {
  message: string;
  cause?: unknown;
}

export interface SearchMcpErrorSettings extends SearchMcpErrorOptions {
  name: string;
  code: SearchMcpErrorCode;
  jsonRpcCode: number;
  statusCode: number;
  isRetryable: boolean;
}

export class SearchMcpError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [symbol] = true;

  readonly code: SearchMcpErrorCode;
  /** JSON-RPC error code for MCP responses. */
  readonly jsonRpcCode: number;
  /** HTTP status for the REST API. */
  readonly statusCode: number;
  /** True when repeating the same request may succeed without side effects having happened twice. */
  readonly isRetryable: boolean;
  override readonly cause?: unknown;

  protected constructor(settings: SearchMcpErrorSettings) {
    super(settings.message);
    this.name = settings.name;
    this.code = settings.code;
    this.jsonRpcCode = settings.jsonRpcCode;
    this.statusCode = settings.statusCode;
    this.isRetryable = settings.isRetryable;
    if (settings.cause !== undefined) this.cause = settings.cause;
  }

  static isInstance(error: unknown): error is SearchMcpError {
    return SearchMcpError.hasMarker(error, marker);
  }

  protected static hasMarker(error: unknown, marker: string): boolean {
    const markerSymbol = Symbol.for(marker);
    return (
      error != null &&
      typeof error === 'object' &&
      markerSymbol in error &&
      (error as Record<symbol, unknown>)[markerSymbol] === true
    );
  }

  /** A plain object for logs and JSON bodies; never includes `cause` (it may hold secrets from a backend). */
  toJSON(): { name: string; code: SearchMcpErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}
