import type { Server, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

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
 * A connection that lets the SDK's stdio entry pick the era from the first message (a 2025 `initialize`, a 2026-07-28
 * request carrying its `_meta` envelope, or `server/discover`) and pins one instance from `factory` to it. The
 * transport is any message transport (ours for stdio, in-memory pairs, a 2025 HTTP session's): the entry owns it from
 * `connect` on. Handlers set on the transport before `connect` (`onclose`, `onerror`) keep being called.
 */
export function createEraDetectingConnection(
  factory: EraServerFactory,
  options: EraDetectingConnectionOptions = {},
): SearchMcpConnection {
  let handle: { close(): Promise<void> } | undefined;
  return {
    connect: async (transport) => {
      if (handle) throw new Error('This connection is already connected; make one per transport');
      const previousOnClose = transport.onclose;
      const previousOnError = transport.onerror;
      handle = serveStdio(factory, {
        transport,
        ...(options.onerror ? { onerror: options.onerror } : {}),
      });
      // The entry replaces the transport's handlers with its own; the caller's still hear of the end and errors.
      const entryOnClose = transport.onclose;
      const entryOnError = transport.onerror;
      transport.onclose = () => {
        entryOnClose?.();
        previousOnClose?.();
      };
      transport.onerror = (error) => {
        entryOnError?.(error);
        previousOnError?.(error);
      };
    },
    close: async () => {
      await handle?.close();
    },
  };
}
