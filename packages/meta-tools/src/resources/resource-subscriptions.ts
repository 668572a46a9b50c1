import { errorMessage, isRecord, type Logger } from '@search-mcp/shared';
import type { BackendGateway } from '../forwarding/backend-gateway.js';

/** Whether a server announces `resources.subscribe` now (capabilities of its current connection). */
export function offersSubscriptions(gateway: Pick<BackendGateway, 'serverCapabilities'>, serverId: string): boolean {
  const resources = gateway.serverCapabilities(serverId)?.resources;
  return isRecord(resources) && resources.subscribe === true;
}

/**
 * The resource subscriptions of the client sessions, per session: `serverId\0uri` → whether the backend holds one
 * for it.
 *
 * Search MCP announces `resources.subscribe` to every client, so a subscription to a resource a server serves is
 * always accepted. A server that does not announce subscriptions (a 2026-07-28 server without them, a 2025 server
 * that only reads) is not asked; the session's subscription waits here. The updates such a server sends anyway
 * still reach the session, and when the server comes back announcing subscriptions (a reconnect), the waiting
 * subscriptions are sent to it then.
 */
export class ResourceSubscriptions {
  private readonly bySession = new Map<string, Map<string, boolean>>();
  /** How many subscriptions wait for their server to offer subscriptions (most processes: none). */
  private waiting = 0;

  constructor(
    private readonly gateway: Pick<BackendGateway, 'serverCapabilities' | 'subscribeResource' | 'unsubscribeResource'>,
    private readonly logger: Logger,
  ) {}

  /** Subscribes a session to a resource of a server (once per session); the backend only if it takes them. */
  async subscribe(sessionKey: string, serverId: string, uri: string): Promise<void> {
    const keys = this.keysOf(sessionKey);
    const key = subscriptionKey(serverId, uri);
    if (keys.has(key)) return;
    if (!offersSubscriptions(this.gateway, serverId)) {
      keys.set(key, false);
      this.waiting += 1;
      return;
    }
    await this.gateway.subscribeResource(serverId, uri);
    keys.set(key, true);
  }

  /**
   * Ends a session's subscriptions to `uri`, at whichever server it subscribed; nothing when it had none. A server
   * that cannot take the unsubscribe (stopped since, gone) does not fail it: the session hears nothing more either way.
   */
  async unsubscribe(sessionKey: string, uri: string): Promise<void> {
    const keys = this.bySession.get(sessionKey);
    if (!keys) return;
    for (const [key, atBackend] of [...keys]) {
      const [serverId = '', keyUri] = splitKey(key);
      if (keyUri !== uri) continue;
      keys.delete(key);
      if (!atBackend) {
        this.waiting -= 1;
        continue;
      }
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
    for (const [key, atBackend] of keys ?? []) {
      if (!atBackend) {
        this.waiting -= 1;
        continue;
      }
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
    for (const keys of this.bySession.values()) {
      for (const [key, atBackend] of keys) {
        const [serverId = '', uri = ''] = splitKey(key);
        if (atBackend || !offersSubscriptions(this.gateway, serverId)) continue;
        keys.set(key, true);
        this.waiting -= 1;
        sends.push(
          this.gateway.subscribeResource(serverId, uri).catch((error: unknown) => {
            // Still wanted: it waits for the next change.
            if (keys.get(key) === true) {
              keys.set(key, false);
              this.waiting += 1;
            }
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

  private keysOf(sessionKey: string): Map<string, boolean> {
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
