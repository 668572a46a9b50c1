import type { Caller } from '@search-mcp/catalog';
import { errorMessage, type Logger } from '@search-mcp/shared';
import type { ListenSubscriptionsHub } from './listen-subscriptions-hub.js';
import { offersSubscriptions } from './resource-subscriptions.js';

/** One resource a listen stream subscribed to, at the server that holds the subscription. */
export interface ListenResourceSubscription {
  readonly serverId: string;
  readonly uri: string;
}

/**
 * Subscribes the resource uris of a 2026-07-28 `subscriptions/listen` request at the backends that serve them for
 * this caller: the server a read would go to, the first one that offers subscriptions (`resources.subscribe`). A uri
 * no visible server with subscriptions serves is left out, never guessed, so the stream's acknowledgement can say
 * exactly which uris the client will hear about. Unlike a 2025 `resources/subscribe` (`ResourceSubscriptions`),
 * nothing waits for a server that may offer subscriptions later: the acknowledgement is a promise made now.
 * Resolves with the subscriptions made, in the order of `uris` (each uri once); a server that refuses one is logged.
 */
export async function subscribeListenResources(
  hub: ListenSubscriptionsHub,
  caller: Caller,
  uris: readonly string[],
  logger: Logger,
): Promise<ListenResourceSubscription[]> {
  const subscribed: ListenResourceSubscription[] = [];
  // A failure here leaves uris out of the acknowledgement (the client hears it subscribed fewer): logged, so a
  // stream that promises nothing can be told from one whose servers serve none of its uris.
  const visible = await hub.visibleServerIds(caller).catch((error: unknown) => {
    logger.debug('could not find the servers a listen stream may subscribe at', { error: errorMessage(error) });
    return [] as string[];
  });
  for (const uri of new Set(uris)) {
    const candidates = await hub.routes.candidates(uri, visible).catch((error: unknown) => {
      logger.debug('could not find the servers of a resource for a listen stream', { uri, error: errorMessage(error) });
      return [] as string[];
    });
    const serverId = candidates.find((id) => offersSubscriptions(hub.gateway, id));
    if (serverId === undefined) continue;
    try {
      await hub.gateway.subscribeResource(serverId, uri);
      subscribed.push({ serverId, uri });
    } catch (error) {
      logger.debug('could not subscribe a resource for a listen stream', {
        server: serverId,
        error: errorMessage(error),
      });
    }
  }
  return subscribed;
}

/** Ends a listen stream's subscriptions at the backends (in the background: the stream has ended either way). */
export function unsubscribeListenResources(
  hub: ListenSubscriptionsHub,
  subscribed: readonly ListenResourceSubscription[],
  logger: Logger,
): void {
  for (const { serverId, uri } of subscribed) {
    hub.gateway.unsubscribeResource(serverId, uri).catch((error: unknown) => {
      logger.debug('could not unsubscribe a resource of an ended listen stream', {
        server: serverId,
        error: errorMessage(error),
      });
    });
  }
}
