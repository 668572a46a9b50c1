import { errorMessage, type Logger, type LoggingLevel, type McpServerCapabilities } from '@search-mcp/shared';

/** What re-applying needs: a way to send one request to the (new) connection. */
export type SendToBackend = (method: string, params: Record<string, unknown>) => Promise<unknown>;

/**
 * What the client side asked of one backend that must outlive a connection: resource subscriptions (counted per
 * uri: the backend hears `subscribe` at the first and `unsubscribe` after the last) and the logging level. After
 * every reconnect both are sent again, so a restarted backend keeps notifying.
 */
export class BackendSessionState {
  private readonly subscriptions = new Map<string, number>();
  private loggingLevel: LoggingLevel | undefined;

  /** Counts one more subscriber; true when it is the first (the backend must be told). */
  addSubscription(uri: string): boolean {
    const count = this.subscriptions.get(uri) ?? 0;
    this.subscriptions.set(uri, count + 1);
    return count === 0;
  }

  /** Counts one subscriber less; true when none is left (the backend must be told). */
  removeSubscription(uri: string): boolean {
    const count = this.subscriptions.get(uri) ?? 0;
    if (count <= 1) {
      this.subscriptions.delete(uri);
      return count === 1;
    }
    this.subscriptions.set(uri, count - 1);
    return false;
  }

  get subscribedUris(): string[] {
    return [...this.subscriptions.keys()];
  }

  set level(level: LoggingLevel | undefined) {
    this.loggingLevel = level;
  }

  get level(): LoggingLevel | undefined {
    return this.loggingLevel;
  }

  /** Sends the subscriptions and the level again after a reconnect. Failures are logged, never thrown. */
  async restore(send: SendToBackend, logger: Logger, capabilities: McpServerCapabilities | undefined): Promise<void> {
    if (!capabilities) return;
    const pending: Array<Promise<unknown>> = [];
    if ((capabilities.resources as { subscribe?: unknown } | undefined)?.subscribe === true) {
      for (const uri of this.subscriptions.keys()) {
        pending.push(
          send('resources/subscribe', { uri }).catch((error: unknown) =>
            logger.warn('could not renew a resource subscription', { uri, error: errorMessage(error) }),
          ),
        );
      }
    }
    const level = this.loggingLevel;
    if (capabilities.logging !== undefined && level !== undefined) {
      pending.push(
        send('logging/setLevel', { level }).catch((error: unknown) =>
          logger.warn('could not set the logging level again', { level, error: errorMessage(error) }),
        ),
      );
    }
    await Promise.all(pending);
  }
}
