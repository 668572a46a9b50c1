import type { ToolProgress } from '@search-mcp/shared';
import type { RequestExtra } from './request-extra-types.js';

/**
 * How long a response waits after a progress notification of the same call. Clients built on the MCP TypeScript SDK
 * drop a progress notification that they read in the same chunk as its response: the response removes the progress
 * handler before the notification's handler runs, and the SDK then reports an unknown progress token
 * (modelcontextprotocol/typescript-sdk#2580). Spacing the two makes that rare, not impossible: a loaded client can
 * still read both at once. Calls without recent progress are not delayed.
 */
const progressGapMs = 15;

export interface ProgressForwarder {
  /** Sends a backend's progress to the client under the client's own token; undefined when it asked for none. */
  readonly onProgress: ((progress: ToolProgress) => void) | undefined;
  /**
   * Resolves when the response may go out, `progressGapMs` after the last progress notification; undefined when it
   * may go out now (nearly every call: nothing to await).
   */
  settle(): Promise<void> | undefined;
}

/**
 * The progress already sent under a request's token before its backend call (the wait for a server still starting,
 * `handlers/called-server-wait.ts`): the forwarder continues above it, since MCP requires the progress of one token
 * to increase.
 */
const progressBeforeCall = new WeakMap<RequestExtra, number>();

/** Notes that progress `value` went out under the request's token before its backend call. */
export function noteProgressBeforeCall(extra: RequestExtra, value: number): void {
  progressBeforeCall.set(extra, value);
}

/**
 * Forwards the progress of one call. The client's token goes back to the client; the backend gets a token of its own
 * from the client manager, so tokens of different clients never meet. Every notification is sent in order and before
 * the response. The values sent always increase, as MCP requires: after a wait's progress they are shifted above it
 * (and `total` with them), and a backend value not above the last sent is sent as the last plus one.
 */
export function createProgressForwarder(
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): ProgressForwarder {
  const token = meta?.progressToken;
  let lastSentAt = 0;
  const offset = progressBeforeCall.get(extra) ?? 0;
  // Undefined until something was sent under the token: a backend's first value (0 included) goes out as it is.
  let lastValue: number | undefined = offset > 0 ? offset : undefined;
  const onProgress =
    typeof token === 'string' || typeof token === 'number'
      ? (progress: ToolProgress) => {
          lastSentAt = performance.now();
          const shifted = progress.progress + offset;
          const value = lastValue === undefined || shifted > lastValue ? shifted : lastValue + 1;
          lastValue = value;
          extra
            .sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken: token,
                progress: value,
                ...(progress.total !== undefined ? { total: progress.total + offset } : {}),
                ...(progress.message !== undefined ? { message: progress.message } : {}),
              },
            })
            .catch(() => {
              // The client went away; the call itself reports that.
            });
        }
      : undefined;
  return {
    onProgress,
    settle: () => {
      if (lastSentAt === 0) return undefined;
      const wait = lastSentAt + progressGapMs - performance.now();
      return wait > 0 ? new Promise<void>((resolve) => setTimeout(resolve, wait)) : undefined;
    },
  };
}
