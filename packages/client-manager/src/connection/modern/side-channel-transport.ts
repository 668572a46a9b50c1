import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport as ModernTransport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';

/** A reader of the messages beside the client: it takes its own (true) and hears when the connection closes. */
export interface SideChannelReader {
  take(message: JSONRPCMessage): boolean;
  closed(): void;
}

/**
 * The transport a 2.x client connects over, with room for one more reader beside it (the tasks extension's raw
 * requests, `RawRequestChannel`). The reader is attached here, on our own layer between the transport and the
 * client, instead of by rewriting the callbacks the client set on its transport after `connect`: the client keeps
 * sole ownership of what it was handed, and nothing depends on when the SDK sets its callbacks. Until a reader is
 * attached every message goes straight to the client (one branch per message). `inbound` maps each arriving message
 * first (`withCompleteResultType`), so the connection has one layer of ours, not one per concern.
 *
 * Everything else is the inner transport's own, as the 2.x protocol layer reads it (`hasPerRequestStream`,
 * `sessionId`, the protocol version setters).
 */
export class SideChannelTransport implements ModernTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private reader: SideChannelReader | undefined;

  constructor(
    private readonly inner: ModernTransport,
    inbound: <T extends JSONRPCMessage>(message: T) => T = (message) => message,
  ) {
    inner.onmessage = (arrived, extra) => {
      const message = inbound(arrived);
      if (this.reader?.take(message)) return;
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.reader?.closed();
      this.onclose?.();
    };
  }

  /** Lets `reader` take its messages before the client sees them (one reader per connection). */
  attach(reader: SideChannelReader): void {
    if (this.reader) throw new Error('a side channel is already attached to this transport');
    this.reader = reader;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
