/** What the authorization server put on the redirect back to us (RFC 6749 §4.1.2, RFC 9207's `iss`). */
export interface AuthorizationCallback {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/** The callback parameters of a redirect URL's query. */
export function readAuthorizationCallback(query: URLSearchParams): AuthorizationCallback {
  const callback: AuthorizationCallback = {};
  const code = query.get('code');
  const state = query.get('state');
  const iss = query.get('iss');
  const error = query.get('error');
  const description = query.get('error_description');
  if (code !== null) callback.code = code;
  if (state !== null) callback.state = state;
  if (iss !== null) callback.iss = iss;
  if (error !== null) callback.error = error;
  if (description !== null) callback.errorDescription = description;
  return callback;
}

/** The page the browser shows after the redirect: plain words, nothing from the query echoed. */
export function callbackPage(ok: boolean, serverId: string): string {
  const title = ok ? 'Search MCP is authorized' : 'Search MCP was not authorized';
  const body = ok
    ? `Search MCP may now reach the MCP server '${escapeHtml(serverId)}'. You can close this tab.`
    : `The authorization of the MCP server '${escapeHtml(serverId)}' did not complete; the terminal or the log says why.`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
