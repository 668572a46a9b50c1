/**
 * A failed API request. The REST errors are `{ success: false, error, code }` (apps/http-server/README.md, "Status
 * codes"); `message` is the server's own sentence so the page can show it as is.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }

  /** 401: the token is missing, wrong or expired; the console goes back to sign-in. */
  get isUnauthorized(): boolean {
    return this.status === 401;
  }

  /** 403: the token works but the action needs an admin (docs/console.md, "Signing in"). */
  get isForbidden(): boolean {
    return this.status === 403;
  }
}

/** The error of a non-2xx answer, from its body when it is the REST error shape, else from the status line. */
export function apiErrorFromBody(status: number, statusText: string, body: string): ApiError {
  let message = '';
  let code: string | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; code?: unknown };
    // REST errors carry `error` as a string; some routes (OAuth) nest `{ error: { message, code } }`.
    if (typeof parsed.error === 'string') message = parsed.error;
    else if (parsed.error && typeof parsed.error === 'object') {
      const nested = parsed.error as { message?: unknown; code?: unknown };
      if (typeof nested.message === 'string') message = nested.message;
      if (typeof nested.code === 'string') code = nested.code;
    }
    if (!message && typeof parsed.message === 'string') message = parsed.message;
    if (typeof parsed.code === 'string') code = parsed.code;
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): fall back to the status line below.
  }
  if (!message) message = body.trim() && body.length < 200 && !body.includes('<') ? body.trim() : '';
  if (!message) message = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  return new ApiError(status, message, code);
}
