import { errorMessage, isRecord, type Logger } from '@search-mcp/shared';
import type { BackendGateway } from '../forwarding/backend-gateway.js';

/** Whether a server announces `resources.subscribe` now (capabilities of its current connection). */
export function offersSubscriptions(gateway: Pick<BackendGateway, 'serverCapabilities'>, serverId: string): boolean {
  const resources = gateway.serverCapabilities(serverId)?.resources;
  return isRecord(resources) && resources.subscribe === true;
}

/**
 * A session's subscription to one resource of one server: held at the server (`true`), waiting for the server to
 * offer subscriptions (`false`), or being sent to it (the send, which a concurrent subscribe to it waits for).
 */
type Subscription = boolean | Promise<void>;

/**
 * The resource subscriptions of the client sessions, per session: `serverId\0uri` → where the subscription stands.
 *
 * Search MCP announces `resources.subscribe` to every client, so a subscription to a resource a server serves is
 * always accepted. A server that does not announce subscriptions (a 2026-07-28 server without them, a 2025 server
 * that only reads) is not asked; the session's subscription waits here. The updates such a server sends anyway
 * still reach the session, and when the server comes back announcing subscriptions (a reconnect), the waiting
 * subscriptions are sent to it then.
 *
 * The client manager counts a server's subscribers per uri and unsubscribes at the last one, so each subscription
 * recorded here stands for exactly one subscribe at the server: a send is recorded before it is awaited (a second
 * subscribe of the session waits for it instead of counting twice), and a send that ends after its session
 * unsubscribed or closed is undone at the server by the send itself.
 */
export class ResourceSubscriptions {
  private readonly bySession = new Map<string, Map<string, Subscription>>();
  /** How many subscriptions wait for their server to offer subscriptions (most processes: none). */
  private waiting = 0;

  constructor(
    private readonly gateway: Pick<BackendGateway, 'serverCapabilities' | 'subscribeResource' | 'unsubscribeResource'>,
    private readonly logger: Logger,
  ) {}

  /** How many subscriptions wait for their server to offer subscriptions (what `sendWaiting` looks for). */
  get waitingCount(): number {
    return this.waiting;
  }

  /**
   * Subscribes a session to a resource of a server (once per session); the backend only if it takes them. A
   * subscribe while the session's first one is being sent settles with that send.
   */
  async subscribe(sessionKey: string, serverId: string, uri: string): Promise<void> {
    const keys = this.keysOf(sessionKey);
    const key = subscriptionKey(serverId, uri);
    const current = keys.get(key);
    if (current !== undefined) {
      await current;
      return;
    }
    if (!offersSubscriptions(this.gateway, serverId)) {
      keys.set(key, false);
      this.waiting += 1;
      return;
    }
    await this.send(sessionKey, keys, key, () => keys.delete(key));
  }

  /**
   * Ends a session's subscriptions to `uri`, at whichever server it subscribed; nothing when it had none. A server
   * that cannot take the unsubscribe (stopped since, gone) does not fail it: the session hears nothing more either way.
   */
  async unsubscribe(sessionKey: string, uri: string): Promise<void> {
    const keys = this.bySession.get(sessionKey);
    if (!keys) return;
    for (const [key, subscription] of [...keys]) {
      const [serverId = '', keyUri] = splitKey(key);
      if (keyUri !== uri) continue;
      keys.delete(key);
      if (subscription === false) {
        this.waiting -= 1;
        continue;
      }
      // One being sent is undone by its send, which finds it gone.
      if (subscription !== true) continue;
      await this.gateway.unsubscribeResource(serverId, uri).catch((error: unknown) => {
        this.logger.debug('could not unsubscribe a resource at its server', {
          server: serverId,
          error: errorMessage(error),
        });
      });
    }
  }

  /** Whether a session subscribed to this resource of this server. */
  hears(sessionKey: string, serverId: string, uri: string): boolean {
    return this.bySession.get(sessionKey)?.has(subscriptionKey(serverId, uri)) === true;
  }

  /** A closed session's subscriptions end with it (at the backends that hold them). */
  removeSession(sessionKey: string): void {
    const keys = this.bySession.get(sessionKey);
    this.bySession.delete(sessionKey);
    for (const [key, subscription] of keys ?? []) {
      if (subscription === false) {
        this.waiting -= 1;
        continue;
      }
      // One being sent is undone by its send, which finds its session gone.
      if (subscription !== true) continue;
      const [serverId = '', uri = ''] = splitKey(key);
      this.gateway.unsubscribeResource(serverId, uri).catch((error: unknown) => {
        this.logger.debug('could not unsubscribe a closed session', { server: serverId, error: errorMessage(error) });
      });
    }
  }

  /**
   * A server's state changed: subscriptions waiting for a server that now offers them are sent to it. Resolves when
   * those sends settled (a refused one waits for the next change).
   */
  async sendWaiting(): Promise<void> {
    if (this.waiting === 0) return;
    const sends: Array<Promise<void>> = [];
    for (const [sessionKey, keys] of this.bySession) {
      for (const [key, subscription] of keys) {
        const [serverId = ''] = splitKey(key);
        if (subscription !== false || !offersSubscriptions(this.gateway, serverId)) continue;
        this.waiting -= 1;
        // Still wanted after a refusal: it waits for the next change.
        const refused = () => {
          keys.set(key, false);
          this.waiting += 1;
        };
        sends.push(
          this.send(sessionKey, keys, key, refused).catch((error: unknown) => {
            this.logger.debug('could not send a waiting resource subscription', {
              server: serverId,
              error: errorMessage(error),
            });
          }),
        );
      }
    }
    await Promise.all(sends);
  }

  /**
   * Sends a session's subscription to its server, recorded as being sent until the server answers. `refused` runs
   * when the server refuses it while it is still wanted (the session open, the subscription not ended meanwhile); one
   * that ended meanwhile is unsubscribed at the server once it took it, so its count there goes back down.
   */
  private async send(
    sessionKey: string,
    keys: Map<string, Subscription>,
    key: string,
    refused: () => void,
  ): Promise<void> {
    const [serverId = '', uri = ''] = splitKey(key);
    const sent = this.gateway.subscribeResource(serverId, uri);
    keys.set(key, sent);
    const stillWanted = () => this.bySession.get(sessionKey) === keys && keys.get(key) === sent;
    try {
      await sent;
    } catch (error) {
      if (stillWanted()) refused();
      throw error;
    }
    if (stillWanted()) {
      keys.set(key, true);
      return;
    }
    await this.gateway.unsubscribeResource(serverId, uri).catch((error: unknown) => {
      this.logger.debug('could not undo a resource subscription that ended while it was sent', {
        server: serverId,
        error: errorMessage(error),
      });
    });
  }

  private keysOf(sessionKey: string): Map<string, Subscription> {
    let keys = this.bySession.get(sessionKey);
    if (!keys) {
      keys = new Map();
      this.bySession.set(sessionKey, keys);
    }
    return keys;
  }
}

function subscriptionKey(serverId: string, uri: string): string {
  return `${serverId}\u0000${uri}`;
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf('\u0000');
  return [key.slice(0, at), key.slice(at + 1)];
}
