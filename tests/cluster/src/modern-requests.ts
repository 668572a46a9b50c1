/**
 * Bare 2026-07-28 requests over HTTP (apps/http-server README, `/mcp`): no session, the envelope in `params._meta`,
 * `Mcp-Method`/`Mcp-Name` headers; the answer read off the wire, JSON or SSE. A load test counts every answer, so a
 * request here is one POST and nothing else: no retry on the client's side (the load balancer's are what is tested).
 */
export const modernProtocolVersion = '2026-07-28';
export const tasksExtension = 'io.modelcontextprotocol/tasks';

export interface ModernAnswer {
  /** The HTTP status. */
  status: number;
  /** The replica that answered (HAProxy's `X-Search-Mcp-Replica`), when through the balancer. */
  replica: string | undefined;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  /** The body, for failure messages. */
  text: string;
}

let nextId = 0;

export async function modernRequest(
  url: string,
  headers: Record<string, string>,
  method: string,
  params: Record<string, unknown>,
  options: { tasks?: boolean; signal?: AbortSignal } = {},
): Promise<ModernAnswer> {
  const id = ++nextId;
  const name = method === 'tools/call' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': modernProtocolVersion,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': modernProtocolVersion,
          'io.modelcontextprotocol/clientInfo': { name: 'cluster-tests', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': options.tasks ? { extensions: { [tasksExtension]: {} } } : {},
        },
      },
    }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  const replica = response.headers.get('x-search-mcp-replica') ?? undefined;
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
    : text.trim().startsWith('{')
      ? [JSON.parse(text) as Record<string, unknown>]
      : [];
  const answer = messages.find((message) => message.id === id);
  return {
    status: response.status,
    replica,
    text,
    ...(answer?.result !== undefined ? { result: answer.result as Record<string, unknown> } : {}),
    ...(answer?.error !== undefined ? { error: answer.error as ModernAnswer['error'] & object } : {}),
  };
}

/** The text of a tool result's content blocks. */
export function resultText(result: Record<string, unknown> | undefined): string {
  const content = Array.isArray(result?.content) ? (result.content as Array<{ text?: unknown }>) : [];
  return content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('');
}

/** True for an answer that is a successful tool result (not an error, not `isError`). */
export function isToolSuccess(answer: ModernAnswer): boolean {
  return answer.status === 200 && answer.result !== undefined && answer.result.isError !== true;
}
