import type { RemoteServerConfig, ServerConfig } from '@search-mcp/shared';

/** A server whose callers each use their own account (`identity: "per-user"`, README, "Per-user servers"). */
export function isPerUserServer(config: ServerConfig): config is RemoteServerConfig {
  return config.transport !== 'stdio' && config.identity === 'per-user';
}
