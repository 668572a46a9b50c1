import {
  classifyInboundRequest,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type MessageExtraInfo,
  PROTOCOL_VERSION_META_KEY,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';

/**
 * The modern revisions the SDK's stdio entry serves (`SUPPORTED_MODERN_PROTOCOL_VERSIONS` in
 * `@modelcontextprotocol/server` 2.4.0, not exported). A claim naming another revision is refused there with -32022
 * and opens nothing, so it must move nothing here either.
 */
const entryModernRevisions: readonly string[] = ['2026-07-28'];

/** The entry's claim test: the protocol-version key is present in `_meta`, whatever its value. */
export function claimsModernEnvelope(params: unknown): boolean {
  const meta = isRecord(params) ? params._meta : undefined;
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * Where the SDK's stdio entry (`serveStdio`, 2.4.0) is in a connection's opening: nothing decided yet, the probe an
 * enveloped `server/discover` opens (a claim-less `initialize` may still make it 2025), or pinned to an era.
 */
export type StdioEntryPhase = 'opening' | 'probe' | 'legacy' | 'modern';

/** What the client sends of its own accord: the only messages that move the entry's opening. */
type Incoming = JSONRPCRequest | JSONRPCNotification;

/**
 * The one account of the entry's opening that the adapters around it share, so they cannot disagree about a
 * connection's era (each keeps its own, fed the same messages). It includes `keepDiscoverProbeModern`'s rule: during
 * the probe, a claim-less message other than `initialize` is refused before the entry and moves nothing.
 */
export class StdioEntryOpening {
  private current: StdioEntryPhase = 'opening';

  get phase(): StdioEntryPhase {
    return this.current;
  }

  /** Whether `message` is refused before the entry: claim-less, not `initialize`, during the probe. */
  refusedInProbe(message: JSONRPCMessage): message is Incoming {
    return (
      this.current === 'probe' &&
      'method' in message &&
      !claimsModernEnvelope(message.params) &&
      message.method !== 'initialize'
    );
  }

  /** Follows the entry as it takes `message` (anything the client sends; answers move nothing). */
  take(message: JSONRPCMessage): void {
    if (this.current === 'legacy' || this.current === 'modern' || !('method' in message)) return;
    if (this.refusedInProbe(message)) return;
    this.current = this.after(message);
  }

  private after(message: Incoming): StdioEntryPhase {
    // A claim-less message (only `initialize` gets here during the probe) pins 2025.
    if (!claimsModernEnvelope(message.params)) return 'legacy';
    // A claim that is malformed or names a revision the entry does not serve is refused there and pins nothing.
    if (!validModernClaim(message)) return this.current;
    if ('id' in message && message.method === 'server/discover') return 'probe';
    // A modern notification during the probe goes to the probe instance without pinning it.
    if (!('id' in message) && this.current === 'probe') return 'probe';
    return 'modern';
  }
}

/**
 * Whether the entry takes `message`'s claim as a 2026-07-28 opening: a well-formed envelope naming a revision it
 * serves. The entry checks a notification's claim by the request rule, so a notification is asked about as a request.
 */
function validModernClaim(message: Incoming): boolean {
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    body: { jsonrpc: '2.0', id: 'id' in message ? message.id : 0, method: message.method, params: message.params },
  });
  return (
    route.kind === 'modern' &&
    route.classification.revision !== undefined &&
    entryModernRevisions.includes(route.classification.revision)
  );
}

/**
 * A transport in front of another (`wire`) that passes everything through unless a subclass says otherwise: the base
 * of the adapters around the SDK's stdio entry. The wire's handlers are installed at once, not in `start()`: a caller
 * may hand the wire messages as soon as the entry is made.
 */
export abstract class PassThroughTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(protected readonly wire: Transport) {
    wire.onmessage = (message, extra) => this.receive(message, extra);
    wire.onclose = () => this.closed();
    wire.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.wire.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.wire.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.wire.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.wire.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.wire.start();
  }

  send(message: JSONRPCMessage, sendOptions?: TransportSendOptions): Promise<void> {
    return this.wire.send(message, sendOptions);
  }

  close(): Promise<void> {
    return this.wire.close();
  }

  /** A message from the wire; passed on as it is unless overridden. */
  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** The wire closed. */
  protected closed(): void {
    this.onclose?.();
  }
}
