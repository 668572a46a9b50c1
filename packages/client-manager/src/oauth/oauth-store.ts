/**
 * Where OAuth credentials of backend servers are kept (docs/oauth.md, "Storage"): tokens and client registrations,
 * one JSON string per server. The manager's default is the OS keyring when one answers, else a 0600 file under the
 * user's config folder; an embedding host passes its own (`McpClientManager` option `oauth.store`).
 */
export interface OAuthStore {
  /** The value stored under `key`, or undefined. */
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Where the values are, in a few words for `search-mcp auth` and `doctor` (`the OS keyring`, a file path). */
  readonly description: string;
}
