import type { FastifyReply } from 'fastify';
import type { PendingRequestListener } from '../mcp/tracked-transport.js';

/** Why a call in flight was stopped: its client went away, or the app is shutting down. */
export type StopReason = 'client-gone' | 'shutting-down';

/** One call in flight: its signal stops the backend call (MCP `notifications/cancelled`) when it aborts. */
export interface InFlightCall {
  readonly signal: AbortSignal;
  /** Why the signal aborted; undefined while it has not. */
  readonly stopReason: StopReason | undefined;
  /** The call is answered: forget it. */
  end(): void;
}

/**
 * The REST tool calls in flight. Each gets a signal that aborts when its client disconnects (so the backend call is
 * cancelled, as it is over `/mcp`) or when the app shuts down (so the call is answered 503 at once instead of its
 * socket being dropped when the process exits).
 */
export class InFlightRequests {
  private readonly calls = new Map<AbortController, { reason: StopReason | undefined }>();
  private shuttingDown = false;

  constructor(private readonly listener?: PendingRequestListener) {}

  get size(): number {
    return this.calls.size;
  }

  /** True once `stopAll('shutting-down')` ran: new calls are refused. */
  get closing(): boolean {
    return this.shuttingDown;
  }

  begin(reply: FastifyReply): InFlightCall {
    const controller = new AbortController();
    const state: { reason: StopReason | undefined } = { reason: undefined };
    this.calls.set(controller, state);
    this.listener?.requestStarted();
    const stop = (reason: StopReason) => {
      if (controller.signal.aborted) return;
      state.reason = reason;
      controller.abort(new Error(reason === 'client-gone' ? 'The client disconnected' : 'Search MCP is shutting down'));
    };
    // `close` before `finish` on the response: the client hung up while the call ran.
    const onClose = () => {
      if (!reply.raw.writableFinished) stop('client-gone');
    };
    reply.raw.once('close', onClose);
    if (this.shuttingDown) stop('shutting-down');
    return {
      signal: controller.signal,
      get stopReason() {
        return state.reason;
      },
      end: () => {
        reply.raw.removeListener('close', onClose);
        if (this.calls.delete(controller)) this.listener?.requestEnded();
      },
    };
  }

  /** Stops every call in flight; with `shutting-down`, calls begun later are stopped at once too. */
  stopAll(reason: StopReason): void {
    if (reason === 'shutting-down') this.shuttingDown = true;
    for (const [controller, state] of this.calls) {
      if (controller.signal.aborted) continue;
      state.reason = reason;
      controller.abort(new Error('Search MCP is shutting down'));
    }
  }
}
