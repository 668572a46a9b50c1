import { loadedLegacyClient } from '../legacy/legacy-client-loader.js';
import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import { loadedModernClient } from './modern/modern-client-loader.js';
import { installModernNotificationRelays } from './notification-relays.js';
import type { PeerHooks, PeerSettings } from './peer-settings.js';

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
