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
 * Forwards the progress of one call. The client's token goes back to the client; the backend gets a token of its own
 * from the client manager, so tokens of different clients never meet. Every notification is sent in order and before
 * the response.
 */
export function createProgressForwarder(
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): ProgressForwarder {
  const token = meta?.progressToken;
  let lastSentAt = 0;
  const onProgress =
    typeof token === 'string' || typeof token === 'number'
      ? (progress: ToolProgress) => {
          lastSentAt = performance.now();
          extra
            .sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken: token,
                progress: progress.progress,
                ...(progress.total !== undefined ? { total: progress.total } : {}),
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
