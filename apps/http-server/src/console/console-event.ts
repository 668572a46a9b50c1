import type { ConfigReload } from '@search-mcp/runtime';
import type { ServerState, ServerStatus } from '@search-mcp/shared';

/** What happened to the servers and the config (docs/console.md, `ConsoleEvent`): hot reloads and state changes. */
export interface ConsoleEvent {
  at: string;
  kind: 'reload' | 'reload-failed' | 'server-state';
  servers?: { added: string[]; removed: string[]; changed: string[] };
  notApplied?: string[];
  error?: string;
  serverId?: string;
  from?: string;
  to?: string;
}

export function reloadEvent(reload: ConfigReload, at = new Date()): ConsoleEvent {
  return {
    at: at.toISOString(),
    kind: 'reload',
    servers: {
      added: [...reload.servers.added],
      removed: [...reload.servers.removed],
      changed: [...reload.servers.changed],
    },
    notApplied: [...reload.notApplied],
  };
}

export function reloadFailedEvent(reason: string, at = new Date()): ConsoleEvent {
  return { at: at.toISOString(), kind: 'reload-failed', error: reason };
}

export function serverStateEvent(status: ServerStatus, previous: ServerState, at = new Date()): ConsoleEvent {
  return { at: at.toISOString(), kind: 'server-state', serverId: status.id, from: previous, to: status.state };
}
