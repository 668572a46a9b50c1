import type { Logger, McpClientCapabilities, McpRequestId } from '@search-mcp/shared';
import type { InFlightRequests } from '../connection/in-flight-requests.js';
import type { OriginTracker } from '../connection/origin-tracker.js';
import type { ReverseRequestMethod, ReverseRequestRouter } from './reverse-request-types.js';

export interface ReverseAnswerSettings {
  serverId: string;
  router: ReverseRequestRouter;
  /** The capabilities this client declared in `initialize`: only those methods are answered. */
  capabilities: McpClientCapabilities;
  inFlight: InFlightRequests;
  logger: Logger;
  /** Streamable HTTP servers: the origin of the request on whose stream a reverse request came, when known. */
  originTracker: OriginTracker | undefined;
}

/** What the client's SDK tells about one reverse request (its handler's `extra`, whatever the generation). */
export interface ReverseRequestContext {
  requestId: McpRequestId;
  signal: AbortSignal;
  /** The task the request belongs to (`_meta["io.modelcontextprotocol/related-task"]`), when the SDK read one. */
  taskId?: string | undefined;
}

/** Answers one reverse request of a declared method (params as the backend sent them). */
export type AnswerReverseRequest = (
  method: ReverseRequestMethod,
  params: Record<string, unknown>,
  context: ReverseRequestContext,
) => Promise<Record<string, unknown>>;

/** Which declared capability lets a backend send each method. */
const capabilityOf: Record<ReverseRequestMethod, keyof McpClientCapabilities> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** The reverse-request methods the declared capabilities let a backend send (each needs a handler). */
export function declaredReverseMethods(capabilities: McpClientCapabilities): ReverseRequestMethod[] {
  return (Object.entries(capabilityOf) as Array<[ReverseRequestMethod, keyof McpClientCapabilities]>)
    .filter(([, capability]) => capabilities[capability] !== undefined)
    .map(([method]) => method);
}

/**
 * Answers a backend's sampling, elicitation and roots requests through the router; the client's SDK registers it
 * for the declared methods only (it refuses others; the backend then gets `-32601`) and keeps its own checks in
 * front (the request is validated, elicitation modes are checked against what we declared, results are validated
 * before they go back). The request reaches the router as the backend sent it (unknown fields kept). While a reverse
 * request is pending, the idle timers of this server's calls are paused: a person answering must not time the call
 * out.
 */
export function reverseRequestAnswerer(settings: ReverseAnswerSettings): AnswerReverseRequest {
  const { serverId, router, inFlight, logger } = settings;
  return async (method, params, context) => {
    inFlight.pauseAll();
    try {
      const exactOrigin = settings.originTracker?.exactOrigin(context.requestId);
      logger.debug('reverse request', { method, inFlight: inFlight.size });
      return await router.route({
        serverId,
        method,
        backendRequestId: context.requestId,
        params,
        inFlight: inFlight.list(),
        signal: context.signal,
        ...(context.taskId !== undefined ? { relatedTaskId: context.taskId } : {}),
        ...(exactOrigin !== undefined ? { exactOrigin } : {}),
      });
    } finally {
      inFlight.resumeAll();
    }
  };
}
