/**
 * A request to search-mcp-http's REST API from the test itself (not the page): to make calls the console then shows,
 * and to read what the console's action did.
 */
export interface RestAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API sent
  body: any;
}

export async function restRequest(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; token: string },
): Promise<RestAnswer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${init.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (an empty answer, or text): the text itself.
  }
  return { status: response.status, body };
}
