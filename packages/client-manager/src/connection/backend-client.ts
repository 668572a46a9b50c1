import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ClientCapabilities,
  type ClientRequest,
  type Implementation,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { BackendPeer } from './backend-peer.js';
import type { PeerHooks, PeerSettings } from './peer-factory.js';
import { installReverseHandlers } from '../reverse/reverse-request-handlers.js';
import { installNotificationRelays } from './notification-relays.js';

/**
 * The 1.x SDK client of a 2025-era backend, remembering the protocol revision `initialize` settled on (the 1.x
 * client keeps it nowhere).
 */
export class BackendClient extends Client implements BackendPeer {
  readonly protocolEra = 'legacy';
  private negotiatedVersion: string | undefined;

  constructor(
    info: Implementation,
    /** What this client declared in `initialize`. */
    readonly declaredCapabilities: ClientCapabilities,
  ) {
    super(info, { capabilities: declaredCapabilities });
  }

  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  checkHealth(options: { timeout: number }): Promise<unknown> {
    return this.ping(options);
  }

  /** Every request passes straight through (no extra await on the hot path); only `initialize` is looked at. */
  override request<T extends Parameters<Client['request']>[1]>(
    request: ClientRequest,
    resultSchema: T,
    options?: RequestOptions,
  ): ReturnType<Client['request']> {
    const pending = super.request(request, resultSchema, options);
    if (request.method !== 'initialize') return pending;
    return pending.then((result) => {
      const version = (result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') this.negotiatedVersion = version;
      return result;
    });
  }
}

/** What a 2025 backend's client needs: the settings every client of the server shares, and the connection's hooks. */
export type BackendClientSettings = Omit<PeerSettings, 'logLevel'> & PeerHooks;

/**
 * A client for one connection attempt: the capabilities the router says can be served (none without a router, so
 * backends see exactly what they saw before), reverse-request handlers for them, and relays of the backend's
 * notifications to manager events.
 */
export function createBackendClient(settings: BackendClientSettings): BackendClient {
  const { serverId, router, logger } = settings;
  const capabilities: ClientCapabilities = router?.clientCapabilities(serverId) ?? {};
  const client = new BackendClient(settings.clientInfo, capabilities);
  client.onerror = (error) => logger.debug('transport error', { error: error.message });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => settings.onToolListChanged());
  if (router) {
    const { inFlight, originTracker } = settings;
    installReverseHandlers(client, { serverId, router, capabilities, inFlight, logger, originTracker });
  }
  const stopRelays = installNotificationRelays(client, {
    serverId,
    emit: settings.emit,
    logRateLimit: settings.logRateLimit,
  });
  client.onclose = () => {
    stopRelays();
    settings.onClose();
  };
  return client;
}
