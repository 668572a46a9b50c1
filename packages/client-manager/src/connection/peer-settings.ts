import type { Logger, LoggingLevel, McpImplementation } from '@search-mcp/shared';
import type { ReverseRequestRouter } from '../reverse/reverse-request-types.js';
import type { InFlightRequests } from './in-flight-requests.js';
import type { LogRateLimit } from './log-rate-limit.js';
import type { EmitManagerEvent } from './notification-relays.js';
import type { OriginTracker } from './origin-tracker.js';

/** What every client of one server shares, whatever its era. */
export interface PeerSettings {
  serverId: string;
  clientInfo: McpImplementation;
  logger: Logger;
  /** Says which capabilities can be served (none without a router). */
  router: ReverseRequestRouter | undefined;
  inFlight: InFlightRequests;
  originTracker?: OriginTracker;
  emit: EmitManagerEvent;
  logRateLimit: LogRateLimit;
  /** The log level the client side set, for a 2026-07-28 client's requests from the first one (none: its default). */
  logLevel?: LoggingLevel | undefined;
}

/** What one connection attempt's client reports back to its connection. */
export interface PeerHooks {
  /** The connection closed (crash, remote close). */
  onClose: () => void;
  /** The backend's tool list changed (an unsolicited notification, or one on a `subscriptions/listen` stream). */
  onToolListChanged: () => void;
}
