import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@search-mcp/shared';
import { z } from 'zod';
import type { InFlightRequests } from '../connection/in-flight-requests.js';
import type { OriginTracker } from '../connection/origin-tracker.js';
import type { ReverseRequestMethod, ReverseRequestRouter } from './reverse-request-types.js';

export interface ReverseHandlerSettings {
  serverId: string;
  router: ReverseRequestRouter;
  /** The capabilities this client declared in `initialize`: only those methods get a handler. */
  capabilities: ClientCapabilities;
  inFlight: InFlightRequests;
  logger: Logger;
  /** Streamable HTTP servers: the origin of the request on whose stream a reverse request came, when known. */
  originTracker: OriginTracker | undefined;
}

/** Which declared capability lets a backend send each method. */
const capabilityOf: Record<ReverseRequestMethod, keyof ClientCapabilities> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/**
 * Answers a backend's sampling, elicitation and roots requests through the router. Registered only for what was
 * declared (the SDK refuses others; the backend then gets `-32601`). The SDK's own checks stay in front: the
 * request is validated, elicitation modes are checked against what we declared, and results are validated before
 * they go back. The request reaches the router as the backend sent it (unknown fields kept). While a reverse request
 * is pending, the idle timers of this server's calls are paused: a person answering must not time the call out.
 */
export function installReverseHandlers(client: Client, settings: ReverseHandlerSettings): void {
  const { serverId, router, inFlight, logger } = settings;
  for (const [method, capability] of Object.entries(capabilityOf) as Array<
    [ReverseRequestMethod, keyof ClientCapabilities]
  >) {
    if (settings.capabilities[capability] === undefined) continue;
    const schema = z.object({ method: z.literal(method), params: z.looseObject({}).optional() });
    client.setRequestHandler(schema, async (request, extra) => {
      inFlight.pauseAll();
      try {
        const exactOrigin = settings.originTracker?.exactOrigin(extra.requestId);
        logger.debug('reverse request', { method, inFlight: inFlight.size });
        const result = await router.route({
          serverId,
          method,
          backendRequestId: extra.requestId,
          params: request.params ?? {},
          inFlight: inFlight.list(),
          signal: extra.signal,
          ...(extra.taskId !== undefined ? { relatedTaskId: extra.taskId } : {}),
          ...(exactOrigin !== undefined ? { exactOrigin } : {}),
        });
        // The SDK's result types are narrower than what passes through (unknown fields are kept).
        return result as never;
      } finally {
        inFlight.resumeAll();
      }
    });
  }
}
