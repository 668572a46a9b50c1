import {
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type MessageExtraInfo,
  ProtocolErrorCode,
  type Transport,
} from '@modelcontextprotocol/server';
import { PassThroughTransport, StdioEntryOpening } from '@search-mcp/server';

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

class DiscoverProbeAdapter extends PassThroughTransport {
  /** The same account of the opening the stdio listen adapter keeps, so the two agree on the era. */
  private readonly opening = new StdioEntryOpening();

  constructor(
    wire: Transport,
    private readonly options: DiscoverProbeAdapterOptions,
  ) {
    super(wire);
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.opening.refusedInProbe(message)) {
      this.refuseDuringProbe(message);
      return;
    }
    this.opening.take(message);
    this.onmessage?.(message, extra);
  }

  private refuseDuringProbe(message: JSONRPCRequest | JSONRPCNotification): void {
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
