import { isRecord, type McpFetchLike } from '@search-mcp/shared';

type RequestId = string | number;

/**
 * Wraps the fetch of a Streamable HTTP client transport: for a POST that carries one JSON-RPC request of ours, the
 * response bytes pass through unchanged, and each server→client request in its SSE `data:` lines is reported as
 * `(backend request id, our request id)` before the chunk reaches the SDK.
 */
export function tagServerRequestsOnStream(
  fetchImplementation: McpFetchLike,
  onServerRequest: (backendRequestId: RequestId, ourRequestId: RequestId) => void,
): McpFetchLike {
  return async (url, init) => {
    const response = await fetchImplementation(url, init);
    const ourId = init?.method === 'POST' ? requestIdOf(init.body) : undefined;
    const type = response.headers.get('content-type') ?? '';
    if (ourId === undefined || !type.includes('text/event-stream') || !response.body) return response;
    const decoder = new TextDecoder();
    let pending = '';
    const inspect = (line: string) => {
      if (!line.startsWith('data:')) return;
      try {
        const message: unknown = JSON.parse(line.slice(5).trim());
        if (isRecord(message) && typeof message.method === 'string' && isRequestId(message.id)) {
          onServerRequest(message.id, ourId);
        }
      } catch {
        // Not JSON: the SDK reports it.
      }
    };
    const tagged = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          pending += decoder.decode(chunk, { stream: true });
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) inspect(line.replace(/\r$/, ''));
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(tagged, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}

/** The id of the single JSON-RPC request in a POST body, if that is what it is. */
function requestIdOf(body: unknown): RequestId | undefined {
  if (typeof body !== 'string' || !body.includes('"method"')) return undefined;
  try {
    const message: unknown = JSON.parse(body);
    return isRecord(message) && typeof message.method === 'string' && isRequestId(message.id) ? message.id : undefined;
  } catch {
    return undefined;
  }
}
