import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ClientCapabilities,
  type ClientRequest,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpClientCapabilities, McpImplementation } from '@search-mcp/shared';
import { z } from 'zod';
import type { BackendPeer } from '../connection/backend-peer.js';
import { notificationSchema, relayNotifications } from '../connection/notification-relays.js';
import type { PeerHooks, PeerSettings } from '../connection/peer-settings.js';
import { declaredReverseMethods, reverseRequestAnswerer } from '../reverse/reverse-request-answerer.js';

/**
 * The 1.x SDK client of a 2025-era backend, remembering the protocol revision `initialize` settled on (the 1.x
 * client keeps it nowhere).
 */
export class BackendClient extends Client implements BackendPeer {
  readonly protocolEra = 'legacy';
  private negotiatedVersion: string | undefined;

  constructor(
    info: McpImplementation,
    /** What this client declared in `initialize`. */
    readonly declaredCapabilities: McpClientCapabilities,
  ) {
    // Our capabilities are plain JSON; the 1.x type narrows `experimental` values to JSON values.
    super(info, { capabilities: declaredCapabilities as ClientCapabilities });
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
  const capabilities: McpClientCapabilities = router?.clientCapabilities(serverId) ?? {};
  const client = new BackendClient(settings.clientInfo, capabilities);
  client.onerror = (error) => logger.debug('transport error', { error: error.message });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => settings.onToolListChanged());
  if (router) {
    const { inFlight, originTracker } = settings;
    const answer = reverseRequestAnswerer({ serverId, router, capabilities, inFlight, logger, originTracker });
    for (const method of declaredReverseMethods(capabilities)) {
      // The SDK validates the request (and, before it goes back, the result) in front of this handler.
      const schema = z.object({ method: z.literal(method), params: z.looseObject({}).optional() });
      client.setRequestHandler(schema, async (request, extra) => {
        const result = await answer(method, request.params ?? {}, extra);
        // The SDK's result types are narrower than what passes through (unknown fields are kept).
        return result as never;
      });
    }
  }
  const stopRelays = relayNotifications(
    (method, handle) => client.setNotificationHandler(notificationSchema(method), ({ params }) => handle(params)),
    { serverId, emit: settings.emit, logRateLimit: settings.logRateLimit },
  );
  client.onclose = () => {
    stopRelays();
    settings.onClose();
  };
  return client;
}
