import type { Logger, LoggingLevel, McpImplementation } from '@search-mcp/shared';
import type { ReverseRequestRouter } from '../reverse/reverse-request-types.js';
import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { loadedLegacyClient } from './legacy-client-loader.js';
import type { LogRateLimit } from './log-rate-limit.js';
import { loadedModernClient } from './modern-client-loader.js';
import { type EmitManagerEvent, installModernNotificationRelays } from './notification-relays.js';
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

/**
 * A fresh client of an era for one connection attempt, with the relays of the backend's notifications to manager
 * events: the 1.x client for a 2025 backend (reverse-request handlers included), the 2.x client for a 2026-07-28 one
 * (each SDK's module loaded before: every connect awaits `loadLegacyClient()` or `loadModernClient()`).
 */
export function createPeer(era: ProtocolEra, settings: PeerSettings, hooks: PeerHooks): BackendPeer {
  const { serverId, clientInfo, logger, router } = settings;
  if (era === 'legacy') {
    const { logLevel: _sentInEveryRequestOnlyIn2026, ...shared } = settings;
    return loadedLegacyClient().createBackendClient({ ...shared, ...hooks });
  }
  let stopRelays = () => {};
  const client = loadedModernClient().createModernBackendClient({
    serverId,
    clientInfo,
    logger,
    router,
    logLevel: settings.logLevel,
    onClose: () => {
      stopRelays();
      hooks.onClose();
    },
  });
  stopRelays = installModernNotificationRelays(client, {
    serverId,
    emit: settings.emit,
    logRateLimit: settings.logRateLimit,
    onToolListChanged: hooks.onToolListChanged,
  });
  return client;
}
