import type { McpFetchLike, McpTransport } from '@search-mcp/shared';
import type { RequestOrigin } from '../reverse/reverse-request-types.js';
import { tagServerRequestsOnStream } from './stream-tagging-fetch.js';

type RequestId = string | number;

/** One request of ours being sent: its origin, and its JSON-RPC id once the transport saw it. */
interface SendToken {
  origin: RequestOrigin;
  id?: RequestId;
}

/**
 * Exact attribution for Streamable HTTP backends (stdio has no such channel). A backend's server→client request
 * made while handling one of our requests rides that request's POST response stream; the stream-tagging fetch
 * records "backend request Y came on the stream of our request X" before the SDK sees it, and this tracker knows
 * which origin our request X serves (learned when the transport sends it, synchronously inside `Protocol.request`).
 */
export class OriginTracker {
  private sending: SendToken | undefined;
  private readonly originsById = new Map<RequestId, RequestOrigin>();
  private readonly streamOf = new Map<RequestId, RequestId>();

  /** Call right before `client.request(…)` and `sent()` right after it (the transport sends synchronously). */
  begin(origin: RequestOrigin): SendToken {
    const token: SendToken = { origin };
    this.sending = token;
    return token;
  }

  sent(): void {
    this.sending = undefined;
  }

  /** The request ended: its entries are dropped. */
  forget(token: SendToken): void {
    if (token.id === undefined) return;
    this.originsById.delete(token.id);
    for (const [backendId, ourId] of this.streamOf) if (ourId === token.id) this.streamOf.delete(backendId);
  }

  /** The origin of the request of ours on whose stream the backend sent request `backendRequestId`, if known. */
  exactOrigin(backendRequestId: RequestId): RequestOrigin | undefined {
    const ourId = this.streamOf.get(backendRequestId);
    return ourId === undefined ? undefined : this.originsById.get(ourId);
  }

  /** Wraps a transport's `send` so the id of each request sent under `begin` is recorded. */
  watch(transport: McpTransport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const token = this.sending;
      if (token && 'method' in message && 'id' in message) {
        token.id = message.id;
        this.originsById.set(message.id, token.origin);
      }
      return send(message, options);
    };
  }

  /** A fetch that tags server→client requests arriving on the POST stream of one of our requests. */
  taggingFetch(fetchImplementation: McpFetchLike): McpFetchLike {
    return tagServerRequestsOnStream(fetchImplementation, (backendRequestId, ourRequestId) => {
      if (this.originsById.has(ourRequestId)) this.streamOf.set(backendRequestId, ourRequestId);
    });
  }
}
