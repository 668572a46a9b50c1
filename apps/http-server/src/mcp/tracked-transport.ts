import type {
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { isRecord, type SecretRedactor } from '@search-mcp/shared';
import type { NodeSessionTransport } from '../legacy/node-session-transport.js';

/** Hears when a transport's count of unanswered requests goes up or down (the app's drain waits on it). */
export interface PendingRequestListener {
  requestStarted(): void;
  requestEnded(): void;
}

/**
 * The transport an MCP session's server talks through: the SDK's Streamable HTTP transport, plus two things the
 * HTTP app needs at this one point every message passes.
 *
 * - Every outgoing message passes the secret redactor, so no backend error or result that echoes a configured secret
 *   (an `Authorization` header in an error body) reaches the client (packages/shared/README.md, "Secrets").
 * - It knows which client requests are still unanswered: a session with none is idle (it may be evicted for a new
 *   session of its token), and at shutdown each one gets a JSON-RPC error instead of a dropped stream.
 */
export class TrackedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** Called with each answer to a client request (succeeded: a result, not an error) before the client gets it. */
  onanswer?: (requestId: RequestId, succeeded: boolean) => Promise<void>;
  private readonly pending = new Set<RequestId>();
  private protocolVersion: string | undefined;

  constructor(
    readonly inner: NodeSessionTransport,
    private readonly redactor: SecretRedactor,
    private readonly listener?: PendingRequestListener,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Client requests received and not answered yet. */
  get pendingRequests(): number {
    return this.pending.size;
  }

  /** The protocol version the server answered `initialize` with (the session's `Mcp-Protocol-Version`). */
  get negotiatedProtocolVersion(): string | undefined {
    return this.protocolVersion;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    (this.inner as Transport).setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    this.inner.onclose = () => {
      this.forgetPending();
      this.onclose?.();
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      this.observeIncoming(message);
      this.onmessage?.(message, extra);
    };
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      this.settle(message.id);
      await this.onanswer?.(message.id, 'result' in message);
    }
    await this.inner.send(this.redactor.redactDeep(message), options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  /** Answers every unanswered request with `error` (e.g. at shutdown); their streams end once answered. */
  async answerPending(error: { code: number; message: string }): Promise<void> {
    for (const id of [...this.pending]) {
      await this.send({ jsonrpc: '2.0', id, error }).catch(() => {});
    }
  }

  private observeIncoming(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message && message.id !== undefined) {
      if (!this.pending.has(message.id)) {
        this.pending.add(message.id);
        this.listener?.requestStarted();
      }
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request gets no answer (MCP): it no longer keeps the session busy.
      const params = (message as { params?: unknown }).params;
      const requestId = isRecord(params) ? params.requestId : undefined;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.settle(requestId);
    }
  }

  private settle(id: RequestId): void {
    if (this.pending.delete(id)) this.listener?.requestEnded();
  }

  private forgetPending(): void {
    for (const id of [...this.pending]) this.settle(id);
  }
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
}
