import { ApiClient } from '../api/api-client.js';

/**
 * `search-mcp ui` opens `/ui/#code=<one-time code>`; the console trades the code once for a token
 * (`POST /ui/session { code }` → `{ token }`, docs/console.md "Signing in").
 */
export function codeFromHash(hash: string): string | undefined {
  const parameters = new URLSearchParams(hash.replace(/^#/, ''));
  const code = parameters.get('code');
  return code ? code : undefined;
}

export async function exchangeCode(baseUrl: string, code: string): Promise<string> {
  const client = new ApiClient({ baseUrl, token: () => undefined });
  const answer = await client.post<{ token?: unknown }>('/ui/session', { code });
  if (typeof answer?.token !== 'string' || answer.token === '') throw new Error('The sign-in answer had no token');
  return answer.token;
}

/** The address without the code, so a reload or a copied link does not carry (or replay) it. */
export function addressWithoutCode(location: { pathname: string; search: string }): string {
  return `${location.pathname}${location.search}`;
}
