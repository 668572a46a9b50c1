/**
 * Local errors of Search MCP. Each carries a string `code`, the JSON-RPC code it maps to on the wire (seed 002)
 * and the HTTP status it maps to in the REST API (seed 001). Wire translation happens at the edges (meta-tools,
 * http-server); libraries throw these.
 *
 * `instanceof` breaks when two copies of this package are loaded (a host bundling its own), so every class
 * carries a `Symbol.for` marker and a static `isInstance` that checks the marker instead.
 */

const baseMarker = 'search-mcp.error';
const baseSymbol = Symbol.for(baseMarker);

export type SearchMcpErrorCode =
  | 'CONFIG_ERROR'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_DISABLED'
  | 'VALIDATION_ERROR'
  | 'SERVER_NOT_RUNNING'
  | 'BACKEND_ERROR'
  | 'TIMEOUT'
  | 'AUTHENTICATION_ERROR'
  | 'AUTHORIZATION_ERROR'
  | 'RATE_LIMIT_EXCEEDED'
  | 'SEARCH_PROVIDER_ERROR';

/** JSON-RPC error codes used on the wire (JSON-RPC 2.0 + seed 002 + CONTRACT §4). */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  RequestTimeout: -32001,
} as const;

export interface SearchMcpErrorOptions {
  message: string;
  cause?: unknown;
}

interface SearchMcpErrorSettings extends SearchMcpErrorOptions {
  name: string;
  code: SearchMcpErrorCode;
  jsonRpcCode: number;
  statusCode: number;
  isRetryable: boolean;
}

export class SearchMcpError extends Error {
  private readonly [baseSymbol] = true;

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
    return SearchMcpError.hasMarker(error, baseMarker);
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

/** One problem found in a config file or in tool arguments, with the JSON path it concerns. */
export interface Issue {
  /** JSON path, e.g. `mcpServers.github.env.TOKEN` or `arguments.path`. Empty for the root. */
  path: string;
  message: string;
}

export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
}

const configMarker = 'search-mcp.error.ConfigError';
const configSymbol = Symbol.for(configMarker);

/** The configuration is invalid. Lists every problem at once, each naming its JSON path; never holds values. */
export class ConfigError extends SearchMcpError {
  private readonly [configSymbol] = true;
  readonly issues: readonly Issue[];
  /** The config file the problems were found in, when read from a file. */
  readonly file?: string;

  constructor(options: { issues: readonly Issue[]; file?: string; message?: string; cause?: unknown }) {
    const where = options.file ? ` in ${options.file}` : '';
    const listed = options.issues
      .map((issue) => `\n  - ${issue.path ? `${issue.path}: ` : ''}${issue.message}`)
      .join('');
    super({
      name: 'ConfigError',
      code: 'CONFIG_ERROR',
      jsonRpcCode: JsonRpcErrorCode.InternalError,
      statusCode: 500,
      isRetryable: false,
      message: options.message ?? `Invalid configuration${where}:${listed}`,
      cause: options.cause,
    });
    this.issues = options.issues;
    if (options.file !== undefined) this.file = options.file;
  }

  static override isInstance(error: unknown): error is ConfigError {
    return SearchMcpError.hasMarker(error, configMarker);
  }
}

const toolNotFoundMarker = 'search-mcp.error.ToolNotFoundError';
const toolNotFoundSymbol = Symbol.for(toolNotFoundMarker);

/** No visible tool has this name or key. `suggestions` holds the closest keys, best first. */
export class ToolNotFoundError extends SearchMcpError {
  private readonly [toolNotFoundSymbol] = true;
  readonly toolName: string;
  readonly suggestions: readonly string[];

  constructor(options: { toolName: string; suggestions?: readonly string[]; message?: string; cause?: unknown }) {
    super({
      name: 'ToolNotFoundError',
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
    return SearchMcpError.hasMarker(error, toolNotFoundMarker);
  }
}

const toolDisabledMarker = 'search-mcp.error.ToolDisabledError';
const toolDisabledSymbol = Symbol.for(toolDisabledMarker);

/** The tool exists but is switched off (`toolPermissions`, a disabled server or registry tool). */
export class ToolDisabledError extends SearchMcpError {
  private readonly [toolDisabledSymbol] = true;
  readonly toolName: string;

  constructor(options: { toolName: string; reason?: string; message?: string; cause?: unknown }) {
    const reason = options.reason ? ` (${options.reason})` : '';
    super({
      name: 'ToolDisabledError',
      code: 'TOOL_DISABLED',
      jsonRpcCode: JsonRpcErrorCode.InvalidParams,
      statusCode: 403,
      isRetryable: false,
      message: options.message ?? `Tool is disabled: ${options.toolName}${reason}`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is ToolDisabledError {
    return SearchMcpError.hasMarker(error, toolDisabledMarker);
  }
}

const validationMarker = 'search-mcp.error.ValidationError';
const validationSymbol = Symbol.for(validationMarker);

/** Input (tool arguments, request bodies) does not match what is expected. Lists every problem at once. */
export class ValidationError extends SearchMcpError {
  private readonly [validationSymbol] = true;
  readonly issues: readonly Issue[];

  constructor(options: { issues: readonly Issue[]; message?: string; cause?: unknown }) {
    super({
      name: 'ValidationError',
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
    return SearchMcpError.hasMarker(error, validationMarker);
  }
}

const serverNotRunningMarker = 'search-mcp.error.ServerNotRunningError';
const serverNotRunningSymbol = Symbol.for(serverNotRunningMarker);

/**
 * The backend server is not connected (starting, crashed, stopped, failed). The call never reached it,
 * so repeating it is safe: retryable.
 */
export class ServerNotRunningError extends SearchMcpError {
  private readonly [serverNotRunningSymbol] = true;
  readonly serverId: string;
  readonly state?: string;

  constructor(options: { serverId: string; state?: string; message?: string; cause?: unknown }) {
    super({
      name: 'ServerNotRunningError',
      code: 'SERVER_NOT_RUNNING',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 503,
      isRetryable: true,
      message: options.message ?? `MCP server '${options.serverId}' is not running`,
      cause: options.cause,
    });
    this.serverId = options.serverId;
    if (options.state !== undefined) this.state = options.state;
  }

  static override isInstance(error: unknown): error is ServerNotRunningError {
    return SearchMcpError.hasMarker(error, serverNotRunningMarker);
  }
}

const backendMarker = 'search-mcp.error.BackendError';
const backendSymbol = Symbol.for(backendMarker);

/**
 * The backend answered with a JSON-RPC error, or its connection broke during the call. `backendCode` and
 * `data` are the backend's own error fields when it sent any.
 */
export class BackendError extends SearchMcpError {
  private readonly [backendSymbol] = true;
  readonly serverId: string;
  readonly backendCode?: number;
  readonly data?: unknown;

  constructor(options: {
    serverId: string;
    message: string;
    backendCode?: number;
    data?: unknown;
    isRetryable?: boolean;
    cause?: unknown;
  }) {
    super({
      name: 'BackendError',
      code: 'BACKEND_ERROR',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 502,
      isRetryable: options.isRetryable ?? false,
      message: options.message,
      cause: options.cause,
    });
    this.serverId = options.serverId;
    if (options.backendCode !== undefined) this.backendCode = options.backendCode;
    if (options.data !== undefined) this.data = options.data;
  }

  static override isInstance(error: unknown): error is BackendError {
    return SearchMcpError.hasMarker(error, backendMarker);
  }
}

const timeoutMarker = 'search-mcp.error.TimeoutError';
const timeoutSymbol = Symbol.for(timeoutMarker);

/**
 * An operation took longer than allowed. Not retryable: a timed-out tool call may still have run.
 */
export class TimeoutError extends SearchMcpError {
  private readonly [timeoutSymbol] = true;
  readonly timeoutMs: number;

  constructor(options: { timeoutMs: number; message?: string; cause?: unknown }) {
    super({
      name: 'TimeoutError',
      code: 'TIMEOUT',
      jsonRpcCode: JsonRpcErrorCode.RequestTimeout,
      statusCode: 408,
      isRetryable: false,
      message: options.message ?? `Timed out after ${options.timeoutMs} ms`,
      cause: options.cause,
    });
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is TimeoutError {
    return SearchMcpError.hasMarker(error, timeoutMarker);
  }
}

const authenticationMarker = 'search-mcp.error.AuthenticationError';
const authenticationSymbol = Symbol.for(authenticationMarker);

/** No credentials, or credentials that match no configured token. */
export class AuthenticationError extends SearchMcpError {
  private readonly [authenticationSymbol] = true;

  constructor(options: SearchMcpErrorOptions = { message: 'Authentication required' }) {
    super({
      name: 'AuthenticationError',
      code: 'AUTHENTICATION_ERROR',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 401,
      isRetryable: false,
      ...options,
    });
  }

  static override isInstance(error: unknown): error is AuthenticationError {
    return SearchMcpError.hasMarker(error, authenticationMarker);
  }
}

const authorizationMarker = 'search-mcp.error.AuthorizationError';
const authorizationSymbol = Symbol.for(authorizationMarker);

/** Valid credentials that may not do this (e.g. a token not allowed for the requested project). */
export class AuthorizationError extends SearchMcpError {
  private readonly [authorizationSymbol] = true;

  constructor(options: SearchMcpErrorOptions = { message: 'Forbidden' }) {
    super({
      name: 'AuthorizationError',
      code: 'AUTHORIZATION_ERROR',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 403,
      isRetryable: false,
      ...options,
    });
  }

  static override isInstance(error: unknown): error is AuthorizationError {
    return SearchMcpError.hasMarker(error, authorizationMarker);
  }
}

const rateLimitMarker = 'search-mcp.error.RateLimitError';
const rateLimitSymbol = Symbol.for(rateLimitMarker);

/** Too many requests; `retryAfterSeconds` says when to try again, when known. */
export class RateLimitError extends SearchMcpError {
  private readonly [rateLimitSymbol] = true;
  readonly retryAfterSeconds?: number;

  constructor(options: { message?: string; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super({
      name: 'RateLimitError',
      code: 'RATE_LIMIT_EXCEEDED',
      jsonRpcCode: JsonRpcErrorCode.ServerError,
      statusCode: 429,
      isRetryable: true,
      message: options.message ?? 'Rate limit exceeded',
      cause: options.cause,
    });
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static override isInstance(error: unknown): error is RateLimitError {
    return SearchMcpError.hasMarker(error, rateLimitMarker);
  }
}

const searchProviderMarker = 'search-mcp.error.SearchProviderError';
const searchProviderSymbol = Symbol.for(searchProviderMarker);

export type SearchProviderFailure = 'timeout' | 'network' | 'http' | 'invalid-response' | 'cancelled' | 'provider';

/**
 * A search provider could not answer (a cloud search service timed out, failed, or sent something invalid).
 * `FallbackSearchProvider` catches it and asks the next provider.
 */
export class SearchProviderError extends SearchMcpError {
  private readonly [searchProviderSymbol] = true;
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
      name: 'SearchProviderError',
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
    return SearchMcpError.hasMarker(error, searchProviderMarker);
  }
}
