import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport as ModernTransport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
import { isRecord } from '@search-mcp/shared';

/**
 * A 2026-07-28 backend's transport as the 2.x client sees it: a result without `resultType` arrives as `complete`.
 * The revision asks servers to send it, but clients must take its absence as `complete` (the conformance suite
 * checks it), where the 2.x SDK refuses such a result: every call to that backend would fail. Stamping it here,
 * before the SDK reads the message, keeps the fix on the transport's public callbacks. Only results are touched;
 * errors, requests, notifications and results that name a type pass as they are.
 *
 * Everything else is the inner transport's own, including what the 2.x protocol layer reads off a transport
 * (`hasPerRequestStream`: a request's cancellation closes its stream; `sessionId`; the protocol version setters).
 */
export class CompleteResultTransport implements ModernTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: ModernTransport) {
    inner.onmessage = (message, extra) => this.onmessage?.(stamped(message), extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
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

/** The message, or the result response with `resultType: "complete"` when it names none. */
function stamped<T extends JSONRPCMessage>(message: T): T {
  const raw = message as { method?: unknown; result?: unknown };
  if (raw.method !== undefined || !isRecord(raw.result) || raw.result.resultType !== undefined) return message;
  return { ...message, result: { ...raw.result, resultType: 'complete' } };
}
