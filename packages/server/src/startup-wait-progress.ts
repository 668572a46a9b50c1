import { noteProgressBeforeCall } from './progress-forwarder.js';
import type { RequestExtra } from './request-extra-types.js';

/**
 * Progress notifications of a wait for servers still starting (a call's, a discovery's), under the client's progress
 * token: `waiting for server 'x' to start (N s)`. Undefined when the client gave no token. Each value is one more than
 * the last (MCP requires progress to grow), and is noted so the progress of a call that follows continues above it.
 */
export function startupWaitProgress(
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): ((elapsedMs: number, serverIds: readonly string[]) => void) | undefined {
  const token = meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let progress = 0;
  return (elapsedMs, serverIds) => {
    progress += 1;
    noteProgressBeforeCall(extra, progress);
    const names = serverIds.map((id) => `'${id}'`).join(', ');
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          message: `waiting for ${serverIds.length === 1 ? 'server' : 'servers'} ${names} to start (${Math.round(elapsedMs / 1000)} s)`,
        },
      })
      .catch(() => {
        // The client went away; the request itself reports that.
      });
  };
}
