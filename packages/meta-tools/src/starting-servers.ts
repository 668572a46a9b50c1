import type { ServerStatusSource } from './search-mcp-server-options.js';

/** The ids of the servers still connecting. */
export function startingServerIds(manager: ServerStatusSource | undefined): string[] {
  return (manager?.status() ?? []).filter((status) => status.state === 'starting').map((status) => status.id);
}

/** The servers that failed (to start, or for good), with the reason the manager recorded. */
export function failedServers(manager: ServerStatusSource | undefined): Array<{ id: string; reason?: string }> {
  return (manager?.status() ?? [])
    .filter((status) => status.state === 'failed')
    .map((status) => ({ id: status.id, ...(status.lastError ? { reason: status.lastError } : {}) }));
}

/** Resolves when no server is `starting`, after `limitMs`, or when the request is cancelled. */
export function waitForStartingServers(
  manager: ServerStatusSource,
  limitMs: number,
  signal: AbortSignal,
): Promise<void> {
  const starting = () => manager.status().some((status) => status.state === 'starting');
  if (limitMs <= 0 || !starting()) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      manager.off('status-change', check);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const check = () => {
      if (!starting()) finish();
    };
    const timer = setTimeout(finish, limitMs);
    manager.on('status-change', check);
    signal.addEventListener('abort', finish, { once: true });
  });
}
