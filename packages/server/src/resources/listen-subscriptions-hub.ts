import type { Caller } from '@search-mcp/catalog';
import type { BackendGateway } from '../forwarding/backend-gateway.js';
import type { ResourceRoutes } from './resource-routes.js';

/**
 * What a `subscriptions/listen` stream subscribes resources through: the runtime's hub (`ForwardingHub`), spelled out
 * here so the subscriptions need not import the hub that calls them.
 */
export interface ListenSubscriptionsHub {
  readonly gateway: BackendGateway;
  readonly routes: ResourceRoutes;
  visibleServerIds(caller: Caller): Promise<string[]>;
}
