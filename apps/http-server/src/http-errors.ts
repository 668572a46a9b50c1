import { SearchMcpError } from '@search-mcp/shared';

const statusCodes: Record<number, string> = {
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT_EXCEEDED',
};

export interface ErrorBody {
  success: false;
  error: string;
  code: string;
}

/** The REST error body and status of any failure (CONTRACT §6: `{ success: false, error, code }`). */
export function toHttpError(error: unknown): { status: number; body: ErrorBody } {
  if (SearchMcpError.isInstance(error)) {
    return { status: error.statusCode, body: { success: false, error: error.message, code: error.code } };
  }
  // Fastify's own errors carry `message`; the rate limiter throws the body it built, which carries `error`.
  const fastify = error as { statusCode?: number; code?: string; message?: string; error?: string };
  if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const code = statusCodes[fastify.statusCode] ?? 'BAD_REQUEST';
    const message =
      typeof fastify.error === 'string' && fastify.error !== '' && fastify.statusCode === 429
        ? fastify.error
        : fastify.message;
    return { status: fastify.statusCode, body: { success: false, error: message ?? 'Bad request', code } };
  }
  return { status: 500, body: { success: false, error: 'Internal server error', code: 'INTERNAL_ERROR' } };
}

export function errorBody(error: string, code: string): ErrorBody {
  return { success: false, error, code };
}
