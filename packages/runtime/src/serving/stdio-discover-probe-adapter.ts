import {
  classifyInboundRequest,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type MessageExtraInfo,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';

/**
 * The modern revisions the SDK's stdio entry serves (`SUPPORTED_MODERN_PROTOCOL_VERSIONS` in
 * `@modelcontextprotocol/server` 2.4.0, not exported). A discover claiming another revision is refused there with
 * -32022 and opens nothing, so it must not open the probe here either.
 */
const entryModernRevisions: readonly string[] = ['2026-07-28'];

/** What the pinned 2026-07-28 instance answers a request without the envelope (same code, same words). */
const missingEnvelopeMessage =
  'Request is missing the required _meta envelope for protocol revision 2026-07-28 ' +
  '(io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)';

export interface DiscoverProbeAdapterOptions {
  /** A claim-less notification dropped during the probe: reporting only. */
  onerror?: (error: Error) => void;
}

/**
 * ADAPTER around the SDK's stdio entry (`serveStdio`, `@modelcontextprotocol/server` 2.4.0); see
 * `docs/upstream/serve-stdio-discover-probe.md` for the upstream proposal. Should an SDK release make only a claim-less
 * `initialize` end the probe, this file is what goes.
 *
 * The entry answers a 2026-07-28 `server/discover` from a modern instance without pinning the connection, so that a
 * dual-era client that finds no shared modern revision can still fall back to the 2025 `initialize` handshake. It
 * ends that probe on ANY message without the envelope claim, though, not only on `initialize`: one claim-less request
 * (a client bug, or a conformance check of it) after the discover discards the modern instance and pins the
 * connection to 2025 for good. That request is then answered -32601 by the 2025 instance, and every later request,
 * envelope or not, in the 2025 shape. A client that announced itself 2026-07-28 never sent anything a 2025 session
 * could open with, so that connection should stay 2026-07-28 and the request be refused as it is once pinned.
 *
 * This transport sits between the wire and the entry and follows the entry's opening exchange with the same
 * classification (the SDK's public `classifyInboundRequest`, the rule the entry applies to each opening message).
 * While the connection is in the probe (after an enveloped discover, before anything pinned it):
 *
 * - a request without the claim other than `initialize` is refused here with -32602, in the words the pinned modern
 *   instance uses, and never reaches the entry (the probe stays open; the next enveloped request pins it modern);
 * - a notification without the claim is dropped and reported (the probe instance has nothing it could be about
 *   but the discover, which is answered at once; passing it on would end the probe just the same);
 * - a claim-less `initialize` (the documented fallback) and everything enveloped pass through unchanged.
 *
 * Once the entry pinned an era (or the first message was anything but an enveloped discover) every message passes
 * straight through.
 */
export function keepDiscoverProbeModern(wire: Transport, options: DiscoverProbeAdapterOptions = {}): Transport {
  return new DiscoverProbeAdapter(wire, options);
}

type Phase = 'opening' | 'probe' | 'pinned';

/** What the client sends the server of its own accord: the only messages that move the entry's opening exchange. */
type Incoming = JSONRPCRequest | JSONRPCNotification;

function isIncoming(message: JSONRPCMessage): message is Incoming {
  return 'method' in message;
}

class DiscoverProbeAdapter implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private phase: Phase = 'opening';

  constructor(
    private readonly wire: Transport,
    private readonly options: DiscoverProbeAdapterOptions,
  ) {
    // Installed now, not in start(): the caller may hand the wire messages as soon as the entry is made.
    wire.onmessage = (message, extra) => this.receive(message, extra);
    wire.onclose = () => this.onclose?.();
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

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.phase !== 'pinned' && isIncoming(message)) {
      if (this.phase === 'probe' && !claimsEnvelope(message.params) && message.method !== 'initialize') {
        this.refuseDuringProbe(message);
        return;
      }
      this.phase = this.phaseAfter(message);
    }
    this.onmessage?.(message, extra);
  }

  /** The entry's phase once it has taken `message` (a request or notification while no era is pinned). */
  private phaseAfter(message: Incoming): Phase {
    // A claim-less message (only `initialize` gets here during the probe) pins 2025.
    if (!claimsEnvelope(message.params)) return 'pinned';
    // A claim that is malformed or names a revision the entry does not serve is refused there and pins nothing.
    if (!validModernClaim(message)) return this.phase;
    if ('id' in message && message.method === 'server/discover') return 'probe';
    // A modern notification during the probe goes to the probe instance without pinning it.
    if (!('id' in message) && this.phase === 'probe') return 'probe';
    return 'pinned';
  }

  private refuseDuringProbe(message: Incoming): void {
    if (!('id' in message)) {
      this.options.onerror?.(
        new Error(
          `Dropped ${message.method} without the 2026-07-28 _meta envelope after server/discover ` +
            '(it would have turned the connection into a 2025 one)',
        ),
      );
      return;
    }
    this.wire
      .send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: ProtocolErrorCode.InvalidParams, message: missingEnvelopeMessage },
      })
      .catch((error: unknown) => this.options.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}

/** The entry's claim test: the protocol-version key is present in `_meta`, whatever its value. */
function claimsEnvelope(params: unknown): boolean {
  const meta = isRecord(params) ? params._meta : undefined;
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta;
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
