import type { JsonRpcMessage, McpMessageExtraInfo, McpTransport, McpTransportSendOptions } from '@search-mcp/shared';
import { isProbeAnswer } from './era/era-probe.js';

/**
 * Hands a transport the era probe already started to a client: `start()` does nothing (the process runs already),
 * everything else is the transport's own. A late answer to the probe (one that came after its wait ran out) is
 * dropped here, so the client never sees a response to a request it did not send.
 */
export class StartedTransport implements McpTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage, extra?: McpMessageExtraInfo) => void;

  constructor(private readonly inner: McpTransport) {
    inner.onmessage = (message, extra) => {
      if (!isProbeAnswer(message)) this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {}

  send(message: JsonRpcMessage, options?: McpTransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
