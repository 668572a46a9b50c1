/** What `McpClientManager.reconfigure` did (types only). */

export interface ServerConfigChanges {
  /** Servers new in the config, in its order: registered and started as `startAll` starts them. */
  added: string[];
  /** Servers no longer in the config: stopped (process tree ended) and forgotten. */
  removed: string[];
  /** Servers whose entry changed: restarted with the new entry. */
  changed: string[];
  /** Servers with the same entry: untouched (same connection, same process). */
  unchanged: string[];
  /**
   * Settings that changed but cannot change while the manager runs: the old value stays; the host should say
   * "restart search-mcp to apply". The manager reads only `mcpServers` from the config, so today this is always
   * empty; the field is here so hosts need not change when a manager setting moves into the config.
   */
  notApplied: string[];
}
