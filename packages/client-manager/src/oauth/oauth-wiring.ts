import type { Logger, ServerConfig } from '@search-mcp/shared';
import type { McpClientManagerOptions } from '../mcp-client-manager-options.js';
import { createDefaultOAuthStore } from './default-oauth-store.js';
import { openInBrowser } from './default-opener.js';
import type { OAuthStore } from './oauth-store.js';
import { ServerAuthorization } from './server-authorization.js';

/** What the manager builds once for OAuth: the store (opened on first use) and one `ServerAuthorization` per server. */
export interface OAuthWiring {
  store: OAuthStore;
  /** OAuth for a remote server whose `oauth` is not `false`; undefined for the others. */
  forServer(
    config: ServerConfig,
    events: { onAuthorized: () => void; onFailed: (error: unknown) => void },
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
    forServer(config, { onAuthorized, onFailed }) {
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
        opener: settings.openAuthorizationUrl ?? openInBrowser,
        authorizationTimeoutMs: settings.authorizationTimeoutMs ?? defaultAuthorizationTimeoutMs,
        clientName: settings.clientName ?? 'Search MCP',
        logger: logger.child({ server: config.id }),
        onSecret,
        onAuthorized,
        onFailed,
      });
    },
  };
}
