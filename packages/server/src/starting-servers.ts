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
 * every starting server.
 */
export function waitForStartingServers(
  manager: ServerStatusSource,
  limitMs: number,
  signal: AbortSignal,
  waitsFor: StartingServerFilter = everyStartingServer,
): Promise<void> {
  const starting = () => manager.status().some((status) => status.state === 'starting' && waitsFor(status));
  if (limitMs <= 0 || signal.aborted || !starting()) return Promise.resolve();
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

/**
 * Resolves when the server a tool name points at (`server:tool`, `server.tool`, `server__tool`, or a listed name so
 * formed) is no longer `starting`, after `limitMs`, or when the request is cancelled; undefined when the server's
 * own state says it is not starting (nothing to await). A call to a server still connecting then runs instead of failing as "not running" (a one-shot client's first
 * request is the one that starts the servers); a failed or stopped server still fails at once.
 */
export function waitForServerOf(
  manager: ServerStatusSource,
  name: string,
  limitMs: number,
  signal: AbortSignal,
): Promise<void> | undefined {
  // Server ids are `a-z0-9-` only, so the id a name points at ends at its first separator. Every call comes here:
  // a server not starting is seen from its own state, without building every server's status, and nothing is
  // awaited (undefined: no promise, no turn of the event loop).
  const id = /^([a-z0-9-]+)(?::|\.|__)/.exec(name)?.[1];
  if (id !== undefined && manager.serverState && manager.serverState(id) !== 'starting') return undefined;
  const named: StartingServerFilter = ({ id }) =>
    name.length > id.length &&
    name.startsWith(id) &&
    (name[id.length] === ':' || name[id.length] === '.' || name.startsWith('__', id.length));
  return waitForStartingServers(manager, limitMs, signal, named);
}
