import { BackendError, errorMessage, type Logger, type SecretRedactor } from '@search-mcp/shared';
import type { BackendPeer } from '../backend-peer.js';
import { type ListeningClient, ListenStream, listenFilterFor } from './listen-stream.js';

export interface ListenWiringSettings {
  serverId: string;
  logger: Logger;
  /** A backend may echo a secret in its error, as for any forwarded request. */
  redactor: SecretRedactor;
  /** The uris the client side subscribed to (counted by the session state). */
  subscribedUris: () => readonly string[];
  /** How long the backend may take to acknowledge a listen request (the server's current config). */
  timeoutMs: () => number;
}

/**
 * One server's `subscriptions/listen` stream while a 2026-07-28 connection runs: 2026 backends send list changes and
 * resource updates only there, and have no `resources/subscribe` — the uris to report on are part of the stream's
 * filter. A 2025 connection has no stream, and its subscriptions are forwarded as requests.
 */
export class ListenWiring {
  private readonly settings: ListenWiringSettings;
  private stream?: ListenStream;

  constructor(settings: ListenWiringSettings) {
    this.settings = settings;
  }

  /**
   * Opens the stream of a fresh 2026-07-28 connection (the modern peer is the 2.x client, which opens listen
   * streams). Failing to open it is logged (and retried), not fatal: calls still work.
   */
  open(client: BackendPeer): void {
    const { logger, subscribedUris, timeoutMs } = this.settings;
    const stream = new ListenStream({
      client: client as BackendPeer & ListeningClient,
      filter: () => listenFilterFor(client.getServerCapabilities(), subscribedUris()),
      logger,
      timeoutMs: timeoutMs(),
    });
    this.stream = stream;
    stream.refresh().catch(() => {
      // Logged by the stream, which tries again.
    });
  }

  /** Whether `method` changes the stream's filter instead of reaching the backend (a 2026 connection's subscriptions). */
  handles(method: string): boolean {
    return this.stream !== undefined && (method === 'resources/subscribe' || method === 'resources/unsubscribe');
  }

  /**
   * Replaces the stream by one with the subscriptions the session state holds now (already counted by the caller);
   * resolves once the backend acknowledged it. A refusal is a redacted `BackendError`.
   */
  async updateSubscriptions(): Promise<Record<string, unknown>> {
    const { serverId, redactor } = this.settings;
    try {
      await this.stream?.refresh();
    } catch (error) {
      const message = `MCP server '${serverId}' could not update its subscriptions/listen stream: ${errorMessage(error)}`;
      throw redactor.redactDeep(new BackendError({ serverId, message, cause: error }));
    }
    return {};
  }

  /** Takes the stream off the ended connection; the caller closes it (when its other parts are closed). */
  detach(): ListenStream | undefined {
    const stream = this.stream;
    this.stream = undefined;
    return stream;
  }
}
