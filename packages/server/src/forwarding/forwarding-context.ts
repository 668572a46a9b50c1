import type { Caller } from '@search-mcp/catalog';
import type { ForwardingHub } from '../forwarding-hub.js';
import type { PendingInputs } from '../input/pending-inputs.js';
import type { RequestExtra } from '../request-extra-types.js';
import type { ClientOrigin, ClientSession } from '../sessions/client-session.js';
import type { BackendRequestOptions } from './backend-gateway.js';
import { forwardableMeta } from './forwardable-meta.js';

/** What the handlers of forwarded methods (resources, prompts, completions, logging, tasks) of one session share. */
export interface ForwardingContext {
  readonly hub: ForwardingHub;
  readonly session: ClientSession;
  /** The calls held for a 2026-07-28 client's retry, and the codec of our `requestState` (the runtime's). */
  readonly inputs: PendingInputs;
  /** The caller of a request, from its `_meta` and transport; remembered as the session's caller. */
  callerOf(meta: Record<string, unknown> | undefined, extra: RequestExtra): Caller;
  /**
   * Resolves at once, except for the session's first forwarded request: that waits (bounded, as a discovery does)
   * for servers still connecting, so a client that lists or reads once right after start-up is not told "none".
   */
  startupSettled(extra: RequestExtra): Promise<void>;
}

/** How a client request is forwarded: its signal, its `_meta` (our own keys out) and its origin (for reverse requests). */
export function backendOptions(
  context: ForwardingContext,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): BackendRequestOptions & { origin: ClientOrigin } {
  const forwarded = forwardableMeta(meta);
  return {
    signal: extra.signal,
    origin: { session: context.session, extra },
    ...(forwarded ? { meta: forwarded } : {}),
  };
}
