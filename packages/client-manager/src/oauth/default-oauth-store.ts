import { homedir } from 'node:os';
import { join } from 'node:path';
import { createFileOAuthStore } from './file-oauth-store.js';
import { openKeyringOAuthStore } from './keyring-oauth-store.js';
import type { OAuthStore } from './oauth-store.js';

export interface DefaultOAuthStoreOptions {
  /** Default `process.env`: `SEARCH_MCP_OAUTH_FILE`, `XDG_CONFIG_HOME`. */
  env?: Record<string, string | undefined>;
  /** Default `os.homedir()`. */
  homeDirectory?: string;
}

/** `$XDG_CONFIG_HOME/search-mcp/oauth-credentials.json` (`~/.config/…` without it). */
export function defaultOAuthFilePath(options: DefaultOAuthStoreOptions = {}): string {
  const env = options.env ?? process.env;
  const configHome = env.XDG_CONFIG_HOME?.trim()
    ? env.XDG_CONFIG_HOME
    : join(options.homeDirectory ?? homedir(), '.config');
  return join(configHome, 'search-mcp', 'oauth-credentials.json');
}

/**
 * The store the manager uses without a host's own (docs/oauth.md, "Storage"): `SEARCH_MCP_OAUTH_FILE` names a file to
 * use instead of anything else (tests, containers); else the OS keyring when one answers; else the 0600 file at
 * `defaultOAuthFilePath()`. Decided on first use, so a manager that never meets OAuth never touches either.
 */
export function createDefaultOAuthStore(options: DefaultOAuthStoreOptions = {}): OAuthStore {
  const env = options.env ?? process.env;
  let chosen: Promise<OAuthStore> | undefined;
  const store = (): Promise<OAuthStore> => {
    chosen ??= (async () => {
      const file = env.SEARCH_MCP_OAUTH_FILE?.trim();
      if (file) return createFileOAuthStore(file);
      return (await openKeyringOAuthStore()) ?? createFileOAuthStore(defaultOAuthFilePath(options));
    })();
    return chosen;
  };
  const file = env.SEARCH_MCP_OAUTH_FILE?.trim();
  return {
    get description() {
      return file || `the OS keyring, else ${defaultOAuthFilePath(options)}`;
    },
    get: async (key) => (await store()).get(key),
    set: async (key, value) => (await store()).set(key, value),
    delete: async (key) => (await store()).delete(key),
  };
}
