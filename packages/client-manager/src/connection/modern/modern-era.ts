import type { EraStrategy } from '../era/era-strategy.js';
import { installModernNotificationRelays } from '../notification-relays.js';
import { loadedModernClient, loadModernClient } from './modern-client-loader.js';
import { connectModernRemote } from './modern-remote-connection.js';

/**
 * MCP 2026-07-28 (no handshake: `server/discover`, then an envelope in every request), on the 2.x SDK client: its
 * module is loaded only when a backend needs it; its client's relays include the tool list refresh (such a backend
 * sends change notifications only on a `subscriptions/listen` stream).
 */
export const modernEra: EraStrategy = {
  era: 'modern',
  async load(errors) {
    errors.adoptModern((await loadModernClient()).modernErrorReader);
  },
  createPeer(settings, hooks) {
    const { serverId, clientInfo, logger, router } = settings;
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
  },
  connectRemote: connectModernRemote,
};
