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

/**
 * The page the browser shows after the redirect to the loopback listener: plain words, nothing from the query echoed.
 * `arrived`: the redirect of the login under way (the terminal or the log says whether the exchange worked);
 * `refused`: that redirect carries an error; `unknown`: not the redirect of any login under way.
 */
export function callbackPage(outcome: 'arrived' | 'refused' | 'unknown', serverId: string): string {
  const server = escapeHtml(serverId);
  const [title, body] =
    outcome === 'arrived'
      ? [
          'Search MCP received the authorization',
          `Search MCP is finishing the login to the MCP server '${server}'. You can close this tab.`,
        ]
      : outcome === 'refused'
        ? [
            'Search MCP was not authorized',
            `The authorization of the MCP server '${server}' did not complete; the terminal or the log says why.`,
          ]
        : [
            'Not a login Search MCP is waiting for',
            'This redirect does not belong to the authorization Search MCP started; nothing was changed.',
          ];
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
