import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  SUBSCRIPTION_ID_META_KEY,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { isRecord, type Logger } from '@search-mcp/shared';
import type { ForwardingHub } from '../forwarding-hub.js';
import { PassThroughTransport, StdioEntryOpening } from '../stdio-entry-opening.js';
import type { ListenResourceSubscription } from './listen-resource-subscriptions.js';

export interface StdioListenAdapterOptions {
  hub: Pick<ForwardingHub, 'gateway' | 'subscribeListen' | 'unsubscribeListen' | 'canSee'>;
  /** Who a listen request is from (its `_meta`: a `projectId` it names, else the connection's project). */
  callerOf(meta: Record<string, unknown> | undefined): Caller;
  logger: Logger;
}

/** One `subscriptions/listen` request of the connection with resource uris. */
interface Listen {
  caller: Caller;
  subscribed: ListenResourceSubscription[];
  /** Subscriptions being made; the request has not reached the SDK's entry yet. */
  preparing: boolean;
  /** The acknowledgement went out: updates may follow it. */
  acknowledged: boolean;
  ended: boolean;
}

/**
 * ADAPTER around the SDK's stdio entry (`serveStdio`, `@modelcontextprotocol/server` 2.4.0), which answers a 2026-07-28
 * client's `subscriptions/listen` itself and offers no hook to learn of a stream, its filter or its end. Without one,
 * Search MCP would acknowledge every requested resource uri (it announces `resources.subscribe`) and never subscribe
 * at a backend, so the client would hear nothing. This transport sits between the wire and the entry and sees what
 * both sides send:
 *
 * - a `subscriptions/listen` naming resource uris is held while the hub subscribes them at the backends that serve
 *   them (`hub.subscribeListen`, as `search-mcp-http`'s streams do), then passed on with its
 *   `resourceSubscriptions` narrowed to those, so the entry's acknowledgement says what will be delivered;
 * - the backends' `notifications/resources/updated` for those uris go out on the stream once it is acknowledged,
 *   stamped with its subscription id as the entry stamps what it routes (the pinned instance never hears of the
 *   stream, so it cannot send them);
 * - the stream's end (the client's `notifications/cancelled`, the entry's refusal or graceful end, the connection
 *   closing) ends its subscriptions at the backends.
 *
 * List changes need nothing here: the pinned instance sends them and the entry routes them onto the streams. A
 * connection that opened in 2025 (its first message claims no 2026-07-28 envelope, or it fell back to `initialize`
 * after an enveloped `server/discover`) passes through untouched. Should
 * an SDK release offer a listen hook on `serveStdio`, this file is what goes.
 */
export function withListenSubscriptions(wire: Transport, options: StdioListenAdapterOptions): Transport {
  return new StdioListenAdapter(wire, options);
}

class StdioListenAdapter extends PassThroughTransport {
  /** The entry's opening as `keepDiscoverProbeModern` follows it: a 2025 connection is never looked at again. */
  private readonly opening = new StdioEntryOpening();
  private readonly listens = new Map<RequestId, Listen>();
  private listening = false;

  constructor(
    wire: Transport,
    private readonly options: StdioListenAdapterOptions,
  ) {
    super(wire);
  }

  // Every answer of the connection passes here: no promise of its own (the forwarding path counts them).
  override send(message: JSONRPCMessage, sendOptions?: TransportSendOptions): Promise<void> {
    if (this.listens.size > 0) this.observeOutbound(message);
    return this.wire.send(message, sendOptions);
  }

  override async close(): Promise<void> {
    this.endAll();
    await this.wire.close();
  }

  protected override closed(): void {
    this.endAll();
    this.onclose?.();
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.opening.take(message);
    if (this.opening.phase === 'legacy' || !('method' in message)) {
      this.onmessage?.(message, extra);
      return;
    }
    if (message.method === 'subscriptions/listen' && 'id' in message) {
      const uris = requestedUris(message.params);
      if (uris !== undefined && !this.listens.has(message.id)) {
        this.prepare(message, uris, extra);
        return;
      }
    } else if (message.method === 'notifications/cancelled' && isRecord(message.params)) {
      const listen = this.listens.get(message.params.requestId as RequestId);
      if (listen) {
        this.end(message.params.requestId as RequestId);
        // The entry never saw a stream still being prepared: nothing of it to cancel there.
        if (listen.preparing) return;
      }
    }
    this.onmessage?.(message, extra);
  }

  private prepare(
    message: JSONRPCMessage & { id: RequestId; params?: unknown },
    uris: string[],
    extra: MessageExtraInfo | undefined,
  ): void {
    const params = message.params as Record<string, unknown> & { notifications: Record<string, unknown> };
    const caller = this.options.callerOf(isRecord(params._meta) ? params._meta : undefined);
    const listen: Listen = { caller, subscribed: [], preparing: true, acknowledged: false, ended: false };
    this.listens.set(message.id, listen);
    this.listenToBackends();
    const subscribing = this.options.hub.subscribeListen(caller, uris);
    void subscribing
      .catch((error: unknown): ListenResourceSubscription[] => {
        // The stream is still acknowledged, with none of its resources: the client learns none will be delivered.
        this.options.logger.debug('could not subscribe the resources of a listen stream', {
          error: error instanceof Error ? error.message : String(error),
        });
        return [];
      })
      .then((subscribed) => {
        listen.preparing = false;
        listen.subscribed = subscribed;
        // Cancelled, or the connection closed, while subscribing.
        if (listen.ended) {
          this.options.hub.unsubscribeListen(subscribed);
          return;
        }
        const honoured = subscribed.map(({ uri }) => uri);
        this.onmessage?.(
          {
            ...message,
            params: { ...params, notifications: { ...params.notifications, resourceSubscriptions: honoured } },
          },
          extra,
        );
      });
  }

  /** What the entry sends about a stream: its acknowledgement, or the answer that ends it (refusal, graceful end). */
  private observeOutbound(message: JSONRPCMessage): void {
    if ('method' in message) {
      if (message.method !== 'notifications/subscriptions/acknowledged' || !isRecord(message.params)) return;
      const meta = message.params._meta;
      const id = isRecord(meta) ? (meta[SUBSCRIPTION_ID_META_KEY] as RequestId) : undefined;
      const listen = id === undefined ? undefined : this.listens.get(id);
      if (!listen) return;
      listen.acknowledged = true;
      // The entry may narrow the filter further (capabilities): subscriptions it did not honour end now.
      const notifications = isRecord(message.params.notifications) ? message.params.notifications : {};
      const honoured = new Set(
        Array.isArray(notifications.resourceSubscriptions) ? notifications.resourceSubscriptions : [],
      );
      const dropped = listen.subscribed.filter(({ uri }) => !honoured.has(uri));
      if (dropped.length > 0) {
        listen.subscribed = listen.subscribed.filter(({ uri }) => honoured.has(uri));
        this.options.hub.unsubscribeListen(dropped);
      }
      return;
    }
    if ('id' in message && message.id !== undefined && this.listens.has(message.id)) this.end(message.id);
  }

  private readonly relayUpdate = (serverId: string, params: { uri: string; _meta?: unknown }): void => {
    for (const [id, listen] of this.listens) {
      if (!listen.acknowledged || listen.ended) continue;
      if (!listen.subscribed.some((held) => held.serverId === serverId && held.uri === params.uri)) continue;
      if (!this.options.hub.canSee(serverId, listen.caller)) continue;
      const meta = isRecord(params._meta) ? params._meta : {};
      const notification: JSONRPCMessage = {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META_KEY]: id } },
      };
      this.wire.send(notification).catch((error: unknown) => {
        this.options.logger.debug('could not send a resource update on a listen stream', {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }
  };

  private listenToBackends(): void {
    if (this.listening) return;
    this.listening = true;
    this.options.hub.gateway.on('resource-updated', this.relayUpdate);
  }

  private end(id: RequestId): void {
    const listen = this.listens.get(id);
    if (!listen) return;
    this.listens.delete(id);
    listen.ended = true;
    // A stream still being prepared unsubscribes when its subscriptions are made.
    if (!listen.preparing) this.options.hub.unsubscribeListen(listen.subscribed);
    if (this.listens.size === 0 && this.listening) {
      this.listening = false;
      this.options.hub.gateway.off('resource-updated', this.relayUpdate);
    }
  }

  private endAll(): void {
    for (const id of [...this.listens.keys()]) this.end(id);
  }
}

/** The resource uris a listen request asks for; undefined when it asks for none (nothing to subscribe). */
function requestedUris(params: unknown): string[] | undefined {
  const notifications = isRecord(params) ? params.notifications : undefined;
  const uris = isRecord(notifications) ? notifications.resourceSubscriptions : undefined;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string')) return undefined;
  return uris;
}
