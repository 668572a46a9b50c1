import type { OAuthStore } from './oauth-store.js';

/**
 * Opens an authorization URL for a person: the default prints it to stderr and opens the system browser; a host may
 * show it its own way (an MCP URL-mode elicitation, a web page), and a test may follow it with `fetch`. It resolves
 * once the URL is shown (the redirect back is awaited by the manager). It resolves `false` when nobody can be shown the
 * URL now (no client to ask, or the person declined): the server then waits in `needs-auth`, as with
 * `openAuthorizationUrl: false`, instead of the authorization failing.
 */
export type AuthorizationOpener = (
  authorizationUrl: URL,
  serverId: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: an opener that returns nothing (most do) has shown the URL.
) => void | boolean | Promise<void | boolean>;

/** `McpClientManager` option `oauth` (docs/oauth.md). */
export interface McpClientManagerOAuthOptions {
  /**
   * How a person is sent to authorize a server that asks for it. Default: print the URL to stderr and open the system
   * browser. `false`: never ask anyone; such a server waits in state `needs-auth` until it is authorized another way
   * (`search-mcp auth <server>`, `authorize()`, `beginAuthorization()`).
   */
  openAuthorizationUrl?: AuthorizationOpener | false;
  /** Where tokens and registrations are kept. Default: the OS keyring when one answers, else a 0600 file. */
  store?: OAuthStore;
  /** How long a person has to complete an authorization in the browser. Default 300,000 ms (5 minutes). */
  authorizationTimeoutMs?: number;
  /** `client_name` in dynamic registrations. Default `Search MCP`. */
  clientName?: string;
  /**
   * Where the host receives authorization redirects (`search-mcp-http`'s `/oauth/callback`), asked when a caller of a
   * per-user server has not authorized it yet: an authorization is begun for them with it, and their call fails with
   * the URL to open (README, "Per-user servers"). Undefined: the error says to use the host's authorize route.
   */
  redirectUrl?: () => string | undefined;
}
