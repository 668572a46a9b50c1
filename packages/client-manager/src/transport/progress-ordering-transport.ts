import type { JsonRpcMessage, McpMessageExtraInfo, McpTransport, McpTransportSendOptions } from '@search-mcp/shared';

type Delivery = [message: JsonRpcMessage, extra: McpMessageExtraInfo | undefined];

/**
 * Keeps the last progress notification of a call from being lost.
 *
 * The SDK's Protocol handles a response synchronously but runs notification handlers a microtask later. When a
 * backend's final `notifications/progress` and its response arrive in one chunk, the response removes the progress
 * handler before the notification reaches it, and the caller never sees 100 %. This wrapper holds back a response
 * that arrives right after a notification until the next turn of the event loop, and everything after it, so order
 * is kept. Other responses pass through at once.
 */
export class ProgressOrderingTransport implements McpTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage, extra?: McpMessageExtraInfo) => void;

  private readonly queue: Delivery[] = [];
  private flushScheduled = false;
  /** A notification was delivered in this turn of the event loop; its handler may not have run yet. */
  private notificationInFlight = false;

  constructor(readonly inner: McpTransport) {
    inner.onmessage = (message: JsonRpcMessage, extra?: McpMessageExtraInfo) => this.receive(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.deliverQueued();
      this.onclose?.();
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage, options?: McpTransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JsonRpcMessage, extra: McpMessageExtraInfo | undefined): void {
    const isResponse = !('method' in message);
    if (this.queue.length === 0 && !(isResponse && this.notificationInFlight)) {
      this.deliver(message, extra);
      return;
    }
    this.queue.push([message, extra]);
    this.scheduleFlush();
  }

  private deliver(message: JsonRpcMessage, extra: McpMessageExtraInfo | undefined): void {
    if ('method' in message && !('id' in message)) {
      if (!this.notificationInFlight) {
        this.notificationInFlight = true;
        setImmediate(() => {
          this.notificationInFlight = false;
        });
      }
    }
    this.onmessage?.(message, extra);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0] as Delivery;
      if (!('method' in next[0]) && this.notificationInFlight) {
        this.scheduleFlush();
        return;
      }
      this.queue.shift();
      this.deliver(next[0], next[1]);
    }
  }

  private deliverQueued(): void {
    for (const [message, extra] of this.queue.splice(0)) this.onmessage?.(message, extra);
  }
}
