import { diffServerConfigs, type Logger, type ResolvedConfig } from '@search-mcp/shared';
import type { ServerConnection } from './connection/server-connection.js';
import type { ManagerWiring } from './manager-wiring.js';
import type { ServerConfigChanges } from './server-config-changes.js';

export interface ServerSet {
  config: ResolvedConfig;
  /** In config order. */
  connections: Map<string, ServerConnection>;
}

/**
 * A reload's work on the servers (`McpClientManager.reconfigure`): stops removed and changed servers (their calls
 * in flight fail naming the reload), builds the new set in the new config's order (unchanged connections kept as
 * they are), and, when `start` is true, starts the added and changed servers that are enabled, as `startAll` does.
 * `onInstalled` runs once the new set is in place, before anything starts.
 */
export async function applyServerConfig(
  current: ServerSet,
  next: ResolvedConfig,
  settings: {
    wiring: ManagerWiring;
    logger: Logger;
    start: () => boolean;
    onInstalled: (set: ServerSet, changes: ServerConfigChanges) => void;
  },
): Promise<ServerConfigChanges> {
  const diff = diffServerConfigs(current.config, next);
  const changes: ServerConfigChanges = { ...diff, notApplied: [] };
  settings.wiring.addConfig(next);
  const stopping = [
    ...diff.removed.map((id) => current.connections.get(id)?.stop('was removed by a config reload and stopped')),
    ...diff.changed.map((id) => current.connections.get(id)?.stop('was changed by a config reload and stopped')),
  ];
  await Promise.allSettled(stopping);
  const connections = new Map<string, ServerConnection>();
  for (const serverConfig of Object.values(next.mcpServers)) {
    const kept = diff.unchanged.includes(serverConfig.id) ? current.connections.get(serverConfig.id) : undefined;
    connections.set(serverConfig.id, kept ?? settings.wiring.createConnection(serverConfig));
  }
  settings.onInstalled({ config: next, connections }, changes);
  settings.logger.debug('config reloaded', { ...diff });
  if (settings.start()) {
    const starting = [...diff.added, ...diff.changed].flatMap((id) => {
      const connection = connections.get(id);
      return connection?.config.enabled ? [connection.start()] : [];
    });
    await Promise.allSettled(starting);
  }
  return changes;
}
