import type { ServerStatus } from '@search-mcp/shared';
import type { ServerStatusSource } from './search-mcp-server-options.js';

/** The ids of the servers still connecting. */
export function startingServerIds(manager: ServerStatusSource | undefined): string[] {
  return (manager?.status() ?? []).filter((status) => status.state === 'starting').map((status) => status.id);
}

/**
 * The servers that failed (to start, or for good) or wait for an OAuth login, with the reason the manager recorded
 * (for a login, the command that does it: `tool_discovery` passes it on to the model, which tells the user).
 */
export function failedServers(
  manager: ServerStatusSource | undefined,
  caller: { tokenId?: string } = {},
): Array<{ id: string; reason?: string }> {
  return (manager?.status() ?? [])
    .filter((status) => status.state === 'failed' || status.state === 'needs-auth')
    .map((status) => {
      // A per-user server waits for each caller's own authorization (docs/oauth-in-front.md), not for a command
      // run on the server's machine: a caller with a token gets its link from the first call of one of its tools.
      if (status.state === 'needs-auth' && status.perUser !== undefined && caller.tokenId !== undefined) {
        return {
          id: status.id,
          reason: `each user authorizes it with their own account: a call of any of its tools (tool_execute with toolKey "${status.id}:<tool>") answers the link to do so`,
        };
      }
      return { id: status.id, ...(status.lastError ? { reason: status.lastError } : {}) };
    });
}

/**
 * The servers whose tools come from the list kept from their last run (they are still starting): a wait need not
 * hold for them, their kept list answers at once (README, "Discovery before the servers are up").
 */
export function serversWithKeptLists(tools: Iterable<{ serverName: string; cached?: boolean }>): Set<string> {
  const kept = new Set<string>();
  for (const tool of tools) if (tool.cached) kept.add(tool.serverName);
  return kept;
}

/** Which starting servers a wait is for. */
export type StartingServerFilter = (status: ServerStatus) => boolean;

const everyStartingServer: StartingServerFilter = () => true;

/**
 * The servers a wait of at most `limitMs` can expect: those whose last connect (an earlier one in this process: a
 * restart, a reload, a reconnect) took no longer, and those never connected yet (nothing is known of them). A server
 * known to be slow would only hold the answer for the whole limit and still not be ready.
 */
export function expectedWithin(limitMs: number): StartingServerFilter {
  return (status) => status.connectMs === undefined || status.connectMs <= limitMs;
}

/**
 * Resolves when no server that `waitsFor` is `starting`, after `limitMs`, or when the request is cancelled. Default:
 * every starting server. `onWait` hears which are still awaited, every second and at each status change.
 */
export function waitForStartingServers(
  manager: ServerStatusSource,
  limitMs: number,
  signal: AbortSignal,
  waitsFor: StartingServerFilter = everyStartingServer,
  onWait?: (elapsedMs: number, waitingFor: string[]) => void,
): Promise<void> {
  const waitingFor = () => {
    const ids = manager
      .status()
      .filter((status) => status.state === 'starting' && waitsFor(status))
      .map((status) => status.id);
    return ids.length > 0 ? ids : undefined;
  };
  return waitWhile(manager, waitingFor, { limitMs, signal, ...(onWait ? { onWait } : {}) });
}

/**
 * The id of the server a tool name points at (`server:tool`, `server.tool`, `server__tool`, or a listed name so
 * formed); undefined for a name of no such form. Server ids are `a-z0-9-` only, so the id ends at the name's first
 * separator. The id need not be configured: the caller checks it against the config.
 */
export function serverIdOf(name: string): string | undefined {
  return /^([a-z0-9-]+)(?::|\.|__)/.exec(name)?.[1];
}

/** One server still starting, as a wait for it sees it. */
export interface StartingServerWait {
  /** Milliseconds waited so far. */
  elapsedMs: number;
  status: ServerStatus;
}

/**
 * Resolves with the server's status once it is no longer `starting` (running, failed, waiting for a login), or
 * still `starting` after `limitMs`, or when the request is cancelled. `onWait` hears of the wait every
 * `intervalMs` and at each status change of the server, for progress notifications.
 */
export function waitForServer(
  manager: ServerStatusSource,
  serverId: string,
  options: {
    limitMs: number;
    signal: AbortSignal;
    onWait?: (wait: StartingServerWait) => void;
    intervalMs?: number;
  },
): Promise<ServerStatus | undefined> {
  const current = () => manager.status().find((status) => status.id === serverId);
  const stillStarting = () => {
    const status = current();
    return status?.state === 'starting' ? status : undefined;
  };
  const { onWait } = options;
  return waitWhile(manager, stillStarting, {
    limitMs: options.limitMs,
    signal: options.signal,
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    ...(onWait ? { onWait: (elapsedMs: number, status: ServerStatus) => onWait({ elapsedMs, status }) } : {}),
  }).then(current);
}

/**
 * The one wait loop: resolves once `pending` answers undefined (checked at once and at each status change), after
 * `limitMs`, or when `signal` aborts. `onWait` hears what is still pending at each status change and every
 * `intervalMs` (a second by default) while it does: a cold start takes many, and progress notifications follow it.
 */
function waitWhile<Pending>(
  manager: ServerStatusSource,
  pending: () => Pending | undefined,
  options: {
    limitMs: number;
    signal: AbortSignal;
    onWait?: (elapsedMs: number, pending: Pending) => void;
    intervalMs?: number;
  },
): Promise<void> {
  const { limitMs, signal, onWait } = options;
  if (limitMs <= 0 || signal.aborted || pending() === undefined) return Promise.resolve();
  const started = performance.now();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      clearInterval(ticker);
      manager.off('status-change', check);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const check = () => {
      const left = pending();
      if (left === undefined) return finish();
      onWait?.(performance.now() - started, left);
    };
    const timer = setTimeout(finish, limitMs);
    const ticker = onWait ? setInterval(check, options.intervalMs ?? 1000) : undefined;
    manager.on('status-change', check);
    signal.addEventListener('abort', finish, { once: true });
  });
}
