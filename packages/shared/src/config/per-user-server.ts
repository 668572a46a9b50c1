import type { RemoteServerConfig, ServerConfig } from './resolved-config.js';

/**
 * A server whose callers each use their own account (`identity: "per-user"`, docs/oauth-in-front.md): the one test of
 * it, for the client manager's per-caller connections and the HTTP app's authorize route alike.
 */
export function isPerUserServer(config: ServerConfig): config is RemoteServerConfig {
  return config.transport !== 'stdio' && config.identity === 'per-user';
}
