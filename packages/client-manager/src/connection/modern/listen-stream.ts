import type { McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { errorMessage, isRecord, type Logger, type McpServerCapabilities } from '@search-mcp/shared';

/** What a listen stream needs of the 2.x client (`Client.listen`). */
export interface ListeningClient {
  listen(filter: SubscriptionFilter, options?: { timeout?: number }): Promise<McpSubscription>;
}

export interface ListenStreamSettings {
  client: ListeningClient;
  /** The filter wanted now (the backend's capabilities × the subscriptions the manager holds). */
  filter: () => SubscriptionFilter;
  logger: Logger;
  /** How long the backend may take to acknowledge a listen request. */
  timeoutMs: number;
}

/** Waits between tries to listen again after the stream ended or could not be opened: 1 s doubling up to 30 s. */
const firstRetryMs = 1000;
const maxRetryMs = 30_000;

/**
 * The filter for a backend: the list changes it announces (`listChanged`) and, when it offers resource
 * subscriptions, the uris the manager's clients subscribed to. 2026-07-28 has no unsolicited notifications: only
 * what is asked for here reaches us (logging is per request, not part of a listen stream).
 */
export function listenFilterFor(
  capabilities: McpServerCapabilities | undefined,
  subscribedUris: readonly string[],
): SubscriptionFilter {
  const filter: SubscriptionFilter = {};
  const announces = (feature: unknown, flag: string) => isRecord(feature) && feature[flag] === true;
  if (announces(capabilities?.tools, 'listChanged')) filter.toolsListChanged = true;
  if (announces(capabilities?.prompts, 'listChanged')) filter.promptsListChanged = true;
  if (announces(capabilities?.resources, 'listChanged')) filter.resourcesListChanged = true;
  if (announces(capabilities?.resources, 'subscribe') && subscribedUris.length > 0) {
    filter.resourceSubscriptions = [...subscribedUris].sort();
  }
  return filter;
}

/** An open stream and the filter it was opened with (as JSON, to compare). */
interface OpenStream {
  subscription: McpSubscription;
  key: string;
}

function isEmpty(filter: SubscriptionFilter): boolean {
  return Object.keys(filter).length === 0;
}

/**
 * The `subscriptions/listen` stream of one 2026-07-28 connection: what arrives on it goes to the client's
 * notification handlers (the same relays as a 2025 backend's unsolicited notifications). `refresh()` brings it in
 * line with the wanted filter — a changed filter opens a new stream before the old one is closed, so nothing is
 * missed in between. A stream the backend ends while the connection lives is opened again after a backoff;
 * `close()` ends it for good (the connection's end).
 */
export class ListenStream {
  private current?: OpenStream;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private retryTimer?: NodeJS.Timeout;
  private failures = 0;

  constructor(private readonly settings: ListenStreamSettings) {}

  /**
   * Opens, replaces or closes the stream to match the wanted filter (one change at a time). Rejects when the backend
   * would not open it (a retry is planned then); resolves at once when nothing changed.
   */
  refresh(): Promise<void> {
    const run = this.queue.then(() => this.reconcile());
    this.queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const current = this.current;
    this.current = undefined;
    await current?.subscription.close().catch(() => {});
  }

  private async reconcile(): Promise<void> {
    if (this.closed) return;
    const filter = this.settings.filter();
    const key = JSON.stringify(filter);
    const previous = this.current;
    if (previous?.key === key) return;
    if (isEmpty(filter)) {
      this.current = undefined;
      await previous?.subscription.close();
      return;
    }
    let subscription: McpSubscription;
    try {
      subscription = await this.open(filter, previous);
    } catch (error) {
      this.settings.logger.warn('could not open the subscriptions/listen stream', { error: errorMessage(error) });
      this.retryLater();
      throw error;
    }
    if (this.closed) {
      await subscription.close();
      return;
    }
    this.current = { subscription, key };
    this.failures = 0;
    this.settings.logger.debug('listening', { notifications: subscription.honoredFilter });
    void subscription.closed.then((how) => this.ended(subscription, how));
    await previous?.subscription.close();
  }

  /**
   * Opens a stream with `filter`. When a stream is open already and the backend refuses a second one (a server may
   * allow one subscription per connection), the old one is closed first and the open tried once more: a gap in
   * delivery is better than no stream.
   */
  private async open(filter: SubscriptionFilter, previous: OpenStream | undefined): Promise<McpSubscription> {
    const listen = () => this.settings.client.listen(filter, { timeout: this.settings.timeoutMs });
    try {
      return await listen();
    } catch (error) {
      if (!previous || this.closed) throw error;
      this.settings.logger.debug('a second listen stream was refused; replacing the open one', {
        error: errorMessage(error),
      });
      if (this.current === previous) this.current = undefined;
      await previous.subscription.close();
      return listen();
    }
  }

  /** The backend ended the stream (`graceful`: shutting down; `remote`: dropped) while we still wanted it. */
  private ended(subscription: McpSubscription, how: 'local' | 'graceful' | 'remote'): void {
    if (this.closed || how === 'local' || this.current?.subscription !== subscription) return;
    this.current = undefined;
    this.settings.logger.info('the subscriptions/listen stream ended; listening again soon', { how });
    this.retryLater();
  }

  private retryLater(): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const delayMs = Math.min(maxRetryMs, firstRetryMs * 2 ** this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.refresh().catch(() => {
        // Logged by reconcile, which planned the next try.
      });
    }, delayMs);
    this.retryTimer.unref();
  }
}
