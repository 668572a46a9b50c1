import type { JSONRPCMessage, MessageExtraInfo, Server, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { claimsModernEnvelope } from '@search-mcp/server';
import { keepDiscoverProbeModern } from './stdio-discover-probe-adapter.js';

/** The protocol era a server instance is built for: 2025 revisions (`initialize`) or 2026-07-28 (no handshake). */
export type ProtocolEra = 'legacy' | 'modern';

/** Builds the server instance for one connection, once its era is known. */
export type EraServerFactory = (context: { era: ProtocolEra }) => Server;

/**
 * One client connection served in whichever protocol era the client opens with: `connect` it to a transport and
 * `close` it, like an SDK server.
 */
export interface SearchMcpConnection {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface EraDetectingConnectionOptions {
  /** Errors outside any request (a message of the other era, JSON that is not JSON-RPC): reporting only. */
  onerror?: (error: Error) => void;
}

/**
 * A connection that serves the client in whichever protocol era it opens with: `connect` it to a transport and
 * `close` it, like an SDK server. The transport is any message transport (ours for stdio, in-memory pairs, a 2025 HTTP
 * session's); handlers set on it before `connect` (`onclose`, `onerror`) keep being called.
 *
 * A first message that is a 2025 `initialize` (no 2026-07-28 envelope claim in its `_meta`) is classified by the SDK's
 * own rule as the 2025 handshake: the instance from `factory` is connected to the transport directly. Anything else
 * goes to the SDK's stdio entry (`serveStdio`), which picks the era from it (a 2026-07-28 request carrying its
 * envelope, `server/discover`, a claim-less request) and pins an instance. Why not the entry for everything: once
 * pinned to 2025 it only passes messages through, and costs every request and response two more zod checks and an
 * async queue turn (measured on the forwarding path, `bench/proxy-bench.ts`).
 *
 * After an enveloped `server/discover` the entry leaves the era open for a fallback `initialize`, but ends that
 * probe on any claim-less message; `keepDiscoverProbeModern` keeps a claim-less request other than `initialize` from
 * turning such a connection into a 2025 one (it is refused -32602, as the pinned 2026-07-28 instance would).
 */
export function createEraDetectingConnection(
  factory: EraServerFactory,
  options: EraDetectingConnectionOptions = {},
): SearchMcpConnection {
  let connected = false;
  let serving: { close(): Promise<void> } | undefined;
  let transportOf: Transport | undefined;
  return {
    connect: async (transport) => {
      if (connected) throw new Error('This connection is already connected; make one per transport');
      connected = true;
      transportOf = transport;
      const previousOnClose = transport.onclose;
      const previousOnError = transport.onerror;
      const relay = relayTo(transport);
      const held: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> = [];
      let chosen = false;
      const choose = async (first: JSONRPCMessage) => {
        if (opensLegacySession(first)) {
          const server = factory({ era: 'legacy' });
          serving = server;
          await server.connect(relay);
        } else {
          const onerror = options.onerror ? { onerror: options.onerror } : {};
          serving = serveStdio(factory, { transport: keepDiscoverProbeModern(relay, onerror), ...onerror });
        }
        // From here on messages go straight on; those that came while the instance was made go first, in order.
        transport.onmessage = (message, extra) => relay.onmessage?.(message, extra);
        for (const [message, extra] of held.splice(0)) relay.onmessage?.(message, extra);
      };
      transport.onmessage = (message, extra) => {
        held.push([message, extra]);
        if (chosen) return;
        chosen = true;
        choose(message).catch((error: unknown) => {
          options.onerror?.(error instanceof Error ? error : new Error(String(error)));
          void transport.close();
        });
      };
      // The instance (or the entry) hears of the end and of errors; the caller's handlers still do too.
      transport.onclose = () => {
        relay.onclose?.();
        previousOnClose?.();
      };
      transport.onerror = (error) => {
        relay.onerror?.(error);
        previousOnError?.(error);
      };
      await transport.start();
    },
    close: async () => {
      if (serving) await serving.close();
      else await transportOf?.close();
    },
  };
}

/** The SDK's opening rule for the 2025 handshake: `initialize` whose `_meta` makes no 2026-07-28 envelope claim. */
function opensLegacySession(message: JSONRPCMessage): boolean {
  if (!('method' in message) || message.method !== 'initialize' || !('id' in message)) return false;
  return !claimsModernEnvelope(message.params);
}

/**
 * The transport as the serving side sees it: started already (by `connect`, to read the first message), everything
 * else passed through; its own handler slots, which the transport's handlers call.
 */
function relayTo(transport: Transport): Transport {
  const relay: Transport = {
    start: async () => {},
    send: (message, sendOptions) => transport.send(message, sendOptions),
    close: () => transport.close(),
    get sessionId() {
      return transport.sessionId;
    },
    get hasPerRequestStream() {
      return transport.hasPerRequestStream;
    },
    setProtocolVersion: (version) => transport.setProtocolVersion?.(version),
    setSupportedProtocolVersions: (versions) => transport.setSupportedProtocolVersions?.(versions),
  };
  return relay;
}
