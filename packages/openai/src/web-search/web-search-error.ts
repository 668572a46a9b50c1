import { SearchMcpError, type SearchMcpErrorCode } from '@search-mcp/shared';

/**
 * Everything that can stop a web search, each with its own message. The JSON-RPC codes (packages/openai/README.md, "Web
 * search", and apps/web-search-server/README.md, "The tool"): -32001 authentication (no key, bad key, no access to the
 * model), -32002 search, -32003 rate limit, -32603 internal; an empty query is -32602 (invalid params).
 */
export type WebSearchErrorKind =
  | 'missing-api-key'
  | 'invalid-api-key'
  | 'invalid-setting'
  | 'authentication'
  | 'permission'
  | 'model-not-found'
  | 'rate-limit'
  | 'quota'
  | 'empty-query'
  | 'timeout'
  | 'connection'
  | 'server'
  | 'bad-request'
  | 'refusal'
  | 'failed'
  | 'incomplete'
  | 'cancelled'
  | 'invalid-response'
  | 'internal';

export const webSearchErrorCodes = {
  authentication: -32001,
  search: -32002,
  rateLimit: -32003,
  invalidParams: -32602,
  internal: -32603,
} as const;

const kinds: Record<WebSearchErrorKind, { jsonRpcCode: number; code: SearchMcpErrorCode; statusCode: number }> = {
  'missing-api-key': { jsonRpcCode: webSearchErrorCodes.authentication, code: 'CONFIG_ERROR', statusCode: 401 },
  'invalid-api-key': { jsonRpcCode: webSearchErrorCodes.authentication, code: 'CONFIG_ERROR', statusCode: 401 },
  'invalid-setting': { jsonRpcCode: webSearchErrorCodes.internal, code: 'CONFIG_ERROR', statusCode: 500 },
  authentication: { jsonRpcCode: webSearchErrorCodes.authentication, code: 'AUTHENTICATION_ERROR', statusCode: 401 },
  permission: { jsonRpcCode: webSearchErrorCodes.authentication, code: 'AUTHORIZATION_ERROR', statusCode: 403 },
  'model-not-found': { jsonRpcCode: webSearchErrorCodes.authentication, code: 'AUTHORIZATION_ERROR', statusCode: 404 },
  'rate-limit': { jsonRpcCode: webSearchErrorCodes.rateLimit, code: 'RATE_LIMIT_EXCEEDED', statusCode: 429 },
  quota: { jsonRpcCode: webSearchErrorCodes.rateLimit, code: 'RATE_LIMIT_EXCEEDED', statusCode: 429 },
  'empty-query': { jsonRpcCode: webSearchErrorCodes.invalidParams, code: 'VALIDATION_ERROR', statusCode: 400 },
  timeout: { jsonRpcCode: webSearchErrorCodes.search, code: 'TIMEOUT', statusCode: 504 },
  connection: { jsonRpcCode: webSearchErrorCodes.search, code: 'BACKEND_ERROR', statusCode: 502 },
  server: { jsonRpcCode: webSearchErrorCodes.search, code: 'BACKEND_ERROR', statusCode: 502 },
  'bad-request': { jsonRpcCode: webSearchErrorCodes.search, code: 'BACKEND_ERROR', statusCode: 502 },
  refusal: { jsonRpcCode: webSearchErrorCodes.search, code: 'BACKEND_ERROR', statusCode: 502 },
  failed: { jsonRpcCode: webSearchErrorCodes.search, code: 'BACKEND_ERROR', statusCode: 502 },
  incomplete: { jsonRpcCode: webSearchErrorCodes.search, code: 'BACKEND_ERROR', statusCode: 502 },
  cancelled: { jsonRpcCode: webSearchErrorCodes.search, code: 'BACKEND_ERROR', statusCode: 499 },
  'invalid-response': { jsonRpcCode: webSearchErrorCodes.internal, code: 'BACKEND_ERROR', statusCode: 502 },
  internal: { jsonRpcCode: webSearchErrorCodes.internal, code: 'BACKEND_ERROR', statusCode: 500 },
};

const marker = 'search-mcp.error.WebSearchError';
const markerSymbol = Symbol.for(marker);

export class WebSearchError extends SearchMcpError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker `isInstance` looks for via Symbol.for
  private readonly [markerSymbol] = true;
  readonly kind: WebSearchErrorKind;
  /** HTTP status of OpenAI's last answer, when one caused this. */
  readonly status?: number;
  /** The wait OpenAI asked for with its last 429 (`Retry-After`), in seconds. */
  readonly retryAfterSeconds?: number;
  /** OpenAI's `x-request-id` or the response id (`resp_…`), for support requests. */
  readonly requestId?: string;

  constructor(options: {
    kind: WebSearchErrorKind;
    message: string;
    status?: number;
    retryAfterSeconds?: number;
    requestId?: string;
    cause?: unknown;
  }) {
    const kind = kinds[options.kind];
    super({
      name: 'WebSearchError',
      code: kind.code,
      jsonRpcCode: kind.jsonRpcCode,
      statusCode: kind.statusCode,
      isRetryable: ['rate-limit', 'timeout', 'connection', 'server'].includes(options.kind),
      message: options.message,
      cause: options.cause,
    });
    this.kind = options.kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.requestId !== undefined) this.requestId = options.requestId;
  }

  static override isInstance(error: unknown): error is WebSearchError {
    return SearchMcpError.hasMarker(error, marker);
  }
}
