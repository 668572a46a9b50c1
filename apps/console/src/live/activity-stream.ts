import type { ApiClient } from '../api/api-client.js';
import { ApiError } from '../api/api-error.js';
import { SseParser } from './sse-parser.js';

export interface StreamHandlers {
  /** One parsed event: `call`, `server` or `reload` (docs/console.md), with its JSON data. */
  onEvent: (name: string, data: unknown) => void;
  /** Whether the stream is open now, and the error of a failed attempt. */
  onStatus: (status: { connected: boolean; error?: ApiError }) => void;
}

/**
 * Follows `GET /v1/activity/stream` until `signal` aborts, reconnecting after a pause when the connection drops. It
 * uses `fetch` rather than `EventSource`, which cannot send the `Authorization` header. A 401 or 403 ends it: trying
 * again would not help.
 */
export async function followActivityStream(client: ApiClient, handlers: StreamHandlers, signal: AbortSignal) {
  let delayMs = 1000;
  while (!signal.aborted) {
    try {
      const response = await client.stream('/v1/activity/stream', signal);
      handlers.onStatus({ connected: true });
      delayMs = 1000;
      await readEvents(response, handlers, signal);
      handlers.onStatus({ connected: false });
    } catch (error) {
      if (signal.aborted) return;
      const apiError = error instanceof ApiError ? error : new ApiError(0, (error as Error).message);
      handlers.onStatus({ connected: false, error: apiError });
      if (apiError.isUnauthorized || apiError.isForbidden) return;
    }
    await pause(delayMs, signal);
    delayMs = Math.min(delayMs * 2, 15_000);
  }
}

async function readEvents(response: Response, handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const event of parser.push(value)) {
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          continue;
        }
        handlers.onEvent(event.event, data);
      }
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
