import { ApiError, apiErrorFromBody } from './api-error.js';

export interface ApiClientOptions {
  /** The app's origin; '' in the browser (same origin), a full URL in tests. */
  baseUrl: string;
  /** The bearer token of every request (docs/console.md, "Signing in"). */
  token: () => string | undefined;
  /** The project of a token limited to projects, sent as `x-project-id` (apps/http-server/README.md). */
  project?: () => string | undefined;
  /** Heard on every 401, so the app can return to sign-in with the server's message. */
  onUnauthorized?: (error: ApiError) => void;
}

/**
 * The console's one way to the REST API: it adds the bearer token, sends and reads JSON, and turns every failure
 * (an error status, an unreachable server, a body that is not JSON) into an `ApiError` carrying the server's message.
 */
export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, undefined, signal);
  }

  post<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return this.request<T>('POST', path, body ?? {}, signal);
  }

  /** A raw streaming request (the activity stream): the caller reads the body; errors are thrown as for JSON. */
  async stream(path: string, signal?: AbortSignal): Promise<Response> {
    const response = await this.send('GET', path, undefined, signal, 'text/event-stream');
    if (!response.ok) throw await this.failure(response);
    return response;
  }

  async request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const response = await this.send(method, path, body, signal, 'application/json');
    if (!response.ok) throw await this.failure(response);
    const text = await response.text();
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(response.status, `The server answered ${method} ${path} with something that is not JSON`);
    }
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    accept: string,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept };
    const token = this.options.token();
    if (token) headers['authorization'] = `Bearer ${token}`;
    const project = this.options.project?.();
    if (project) headers['x-project-id'] = project;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        // The token travels in the header only; no cookie is ever needed.
        credentials: 'omit',
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, `Search MCP could not be reached (${(error as Error).message})`);
    }
  }

  private async failure(response: Response): Promise<ApiError> {
    const error = apiErrorFromBody(response.status, response.statusText, await response.text().catch(() => ''));
    if (error.isUnauthorized) this.options.onUnauthorized?.(error);
    return error;
  }
}
