import type { Logger, ServerConfig } from '@search-mcp/shared';
import type { McpClientManagerOptions } from '../mcp-client-manager-options.js';
import { createDefaultOAuthStore } from './default-oauth-store.js';
import { openInBrowser } from './default-opener.js';
import type { OAuthStore } from './oauth-store.js';
import { ServerAuthorization } from './server-authorization.js';
import { perUserCredentialsKey } from './stored-credentials.js';

/** What the manager builds once for OAuth: the store (opened on first use) and one `ServerAuthorization` per server. */
export interface OAuthWiring {
  store: OAuthStore;
  /**
   * OAuth for a remote server whose `oauth` is not `false`; undefined for the others. With `subject`, one caller's own
   * authorization of a per-user server: its own store key, and never an opener (only a host's `begin`/`complete`).
   */
  forServer(
    config: ServerConfig,
    events: { onAuthorized: () => void; onFailed: (error: unknown) => void },
    subject?: string,
  ): ServerAuthorization | undefined;
}

const defaultAuthorizationTimeoutMs = 300_000;

export function createOAuthWiring(
  options: McpClientManagerOptions,
  logger: Logger,
  onSecret: (secret: string) => void,
): OAuthWiring {
  const settings = options.oauth ?? {};
  const store = settings.store ?? createDefaultOAuthStore(options.env ? { env: options.env } : {});
  return {
    store,
    forServer(config, { onAuthorized, onFailed }, subject) {
      if (config.transport === 'stdio' || config.oauth === false || config.configError !== undefined) return undefined;
      const oauth = config.oauth ?? {};
      // A config that sends its own Authorization header and says nothing of OAuth: a 401 is that header's failure.
      const ownAuthorization = Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
      if (ownAuthorization && config.oauth === undefined) return undefined;
      return new ServerAuthorization({
        serverId: config.id,
        serverUrl: config.url,
        settings: oauth,
        store,
        // A caller of a per-user server is somewhere else (an HTTP client): a browser here would log in the wrong
        // person. The link goes back to the caller instead (README, "Per-user servers").
        opener: subject !== undefined ? false : (settings.openAuthorizationUrl ?? openInBrowser),
        ...(subject !== undefined ? { storeKey: perUserCredentialsKey(config.id, config.url, subject) } : {}),
        authorizationTimeoutMs: settings.authorizationTimeoutMs ?? defaultAuthorizationTimeoutMs,
        clientName: settings.clientName ?? 'Search MCP',
        logger: logger.child({ server: config.id, ...(subject !== undefined ? { perUser: true } : {}) }),
        onSecret,
        onAuthorized,
        onFailed,
      });
    },
  };
}
