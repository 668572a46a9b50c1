import { ServerNotRunningError, TimeoutError } from '@search-mcp/shared';
import type { RequestExtra } from '../request-extra-types.js';
import { serverIdOf, startingServerIds, type StartingServerWait, waitForServer } from '../starting-servers.js';
import type { HandlerContext } from './handler-context.js';

/** A server entry's call timeout when the config has none to say (the config's own default). */
const defaultCallTimeoutMs = 60_000;

/**
 * A call to a server still starting waits for it (README, "The first call of a session"): a new session's first
 * call usually comes while the servers connect, and a cold `npx` start takes longer than any fixed grace period. The
 * wait is bounded by the server's own call timeout (`timeoutMs`); a client that gave a progress token hears of it
 * every second and at each status change. Resolves once the call can go ahead (the server is up, or was never
 * starting: nothing is awaited then). Throws the server's own failure when it failed to start (`lastError`), and a
 * timeout when it still starts after `timeoutMs`; a server that now waits for a login is left to the call, whose
 * error names the command that logs in.
 */
export function waitForCalledServer(
  context: HandlerContext,
  name: string,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<void> | undefined {
  const { manager } = context;
  if (!manager) return undefined;
  const servers = context.catalog.config.mcpServers;
  const serverId = serverIdOf(name, () => Object.keys(servers));
  if (serverId === undefined) return undefined;
  // Every call comes here: a server not starting is seen from its own state, and nothing is awaited.
  const starting = manager.serverState
    ? manager.serverState(serverId) === 'starting'
    : startingServerIds(manager).includes(serverId);
  if (!starting) return undefined;
  const limitMs = servers[serverId]?.timeoutMs ?? defaultCallTimeoutMs;
  const onWait = progressOfWait(serverId, meta, extra);
  onWait?.({ elapsedMs: 0, status: { id: serverId, state: 'starting', toolCount: 0, restarts: 0 } });
  return waitForServer(manager, serverId, { limitMs, signal: extra.signal, ...(onWait ? { onWait } : {}) }).then(
    (status) => {
      if (extra.signal.aborted || status === undefined) return;
      if (status.state === 'starting') {
        throw new TimeoutError({
          timeoutMs: limitMs,
          message: `MCP server '${serverId}' is still starting after ${Math.round(limitMs / 1000)} s (its timeoutMs); the call was not run`,
        });
      }
      if (status.state === 'failed') {
        throw new ServerNotRunningError({
          serverId,
          state: status.state,
          isRetryable: false,
          message: `MCP server '${serverId}' failed to start: ${status.lastError ?? 'no reason was recorded'}`,
        });
      }
    },
  );
}

/** Progress notifications of the wait, under the client's token; undefined when the client gave none. */
function progressOfWait(
  serverId: string,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): ((wait: StartingServerWait) => void) | undefined {
  const token = meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let progress = 0;
  return ({ elapsedMs }) => {
    // Each notification's progress is one more than the last: the value must grow.
    progress += 1;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          message: `waiting for server '${serverId}' to start (${Math.round(elapsedMs / 1000)} s)`,
        },
      })
      .catch(() => {
        // The client went away; the call itself reports that.
      });
  };
}
