import { type Issue, RateLimitError, SearchMcpError, ServerNotRunningError, ValidationError } from '@search-mcp/shared';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

const statusCodes: Record<number, string> = {
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT_EXCEEDED',
  503: 'SHUTTING_DOWN',
};

export interface ErrorBody {
  success: false;
  error: string;
  code: string;
  /** A rate limit's wait (docs/trust.md, "Rate limits"): milliseconds until a call would be let through. */
  retryAfterMs?: number;
  /** A rate limit's config path, e.g. `security.rateLimits.perToken`. */
  limit?: string;
}

/**
 * The REST error body and status of any failure (apps/http-server/README.md, "Status codes": `{ success: false,
 * error, code }`). A rate limit of `security.rateLimits` also names the limit and the wait, with the `Retry-After`
 * header (whole seconds, rounded up) in `headers`.
 */
export function toHttpError(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  const validation = schemaValidationError(error);
  if (validation) error = validation;
  if (RateLimitError.isInstance(error) && error.retryAfterMs !== undefined) {
    return {
      status: error.statusCode,
      body: {
        success: false,
        error: error.message,
        code: error.code,
        retryAfterMs: error.retryAfterMs,
        ...(error.limit !== undefined ? { limit: error.limit } : {}),
      },
      headers: { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) },
    };
  }
  if (SearchMcpError.isInstance(error)) {
    return { status: error.statusCode, body: { success: false, error: messageOf(error), code: error.code } };
  }
  // Fastify's own errors carry `message`; the rate limiter throws the body it built, which carries `error`.
  const fastify = error as { statusCode?: number; code?: string; message?: string; error?: string };
  const status = fastify?.statusCode;
  if (typeof status === 'number' && ((status >= 400 && status < 500) || status === 503)) {
    const code = statusCodes[status] ?? 'BAD_REQUEST';
    const message =
      typeof fastify.error === 'string' && fastify.error !== '' && status === 429 ? fastify.error : fastify.message;
    return { status, body: { success: false, error: message ?? 'Bad request', code } };
  }
  return { status: 500, body: { success: false, error: 'Internal server error', code: 'INTERNAL_ERROR' } };
}

/**
 * The error's message; for a backend waiting for OAuth, also how to authorize it through this app (the manager's
 * message names the CLI command, which works too: it shares the token store).
 */
function messageOf(error: SearchMcpError): string {
  if (!ServerNotRunningError.isInstance(error) || error.state !== 'needs-auth') return error.message;
  const id = encodeURIComponent(error.serverId);
  return `${error.message} (or, through this app: POST /v1/servers/${id}/authorize with an admin token)`;
}

/** A 404 for the error handler (`{ success: false, error: message, code: 'NOT_FOUND' }`). */
export function notFound(message: string): Error {
  return Object.assign(new Error(message), { statusCode: 404 });
}

/** A 409 for the error handler: the request conflicts with the config (`{ …, code: 'CONFLICT' }`). */
export function conflict(message: string): Error {
  return Object.assign(new Error(message), { statusCode: 409 });
}

export function errorBody(error: string, code: string): ErrorBody {
  return { success: false, error, code };
}

const contextNames: Record<string, string> = { querystring: 'query' };

/**
 * A request that failed its route's zod schema, as the `ValidationError` the rest of Search MCP throws: every problem
 * at once, each with its path (`body.name`, `query.limit`). Undefined for any other error.
 */
export function schemaValidationError(error: unknown): ValidationError | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const context = (error as FastifyError).validationContext ?? 'body';
  const where = contextNames[context] ?? context;
  const issues: Issue[] = error.validation.map((issue) => ({
    path: [where, ...issue.instancePath.split('/').filter((part) => part !== '')].join('.'),
    message: issue.message ?? 'is invalid',
  }));
  return new ValidationError({ issues });
}
