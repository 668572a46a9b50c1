import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { EventStore, Transport } from '@modelcontextprotocol/server';

/**
 * The one module of this app that imports the 1.x SDK (`@modelcontextprotocol/sdk`): the transport of the sessionful
 * 2025 leg of `/mcp`, which works on node's `req`/`res`.
 *
 * Why 1.x here: the 2.x packages have only the web-standard transport, and the 2026-07-28 leg, when it was built on
 * that web-standard plumbing alone (`createMcpHandler`), served ×0.55–0.72 the req/s of this one on the same backend,
 * at ×1.5–1.9 its server CPU per request (`docs/design/protocol-eras.md` §9). Everything else in the app, and the `Server` this
 * transport carries, is 2.x: the two generations share the transport shape (`start/send/close/onmessage/onclose/
 * onerror/sessionId`), so nothing past this file knows which SDK made it.
 */

/** A session's transport: what a 2.x `Server` connects to, plus the node request entry. */
export interface NodeSessionTransport extends Transport {
  readonly sessionId?: string | undefined;
  /** Serves one HTTP request of the session (`body`: the parsed JSON of a POST). */
  handleRequest(request: IncomingMessage, response: ServerResponse, body?: unknown): Promise<void>;
}

export interface NodeSessionTransportOptions {
  /** Mints the session id on `initialize`; `undefined` = stateless (one request, no session). */
  sessionIdGenerator: (() => string) | undefined;
  /** Keeps each stream's events for replay to a client that reconnects with `Last-Event-ID`. */
  eventStore?: EventStore;
  /** The SSE `retry` field a resumable stream opens with (ms). */
  retryInterval?: number;
  onsessioninitialized?: (sessionId: string) => void;
  /** The client's `DELETE` ended the session: awaited before the transport answers it. */
  onsessionclosed?: (sessionId: string) => void | Promise<void>;
}

export function createNodeSessionTransport(options: NodeSessionTransportOptions): NodeSessionTransport {
  return new StreamableHTTPServerTransport(options) as unknown as NodeSessionTransport;
}

/**
 * The id this transport stores the session's standalone GET stream under (`_standaloneSseStreamId` in the 1.x SDK,
 * not exported). That stream lives as long as the session and carries what no request does (list changes, resource
 * updates), so the event store neither evicts it for POST streams nor ages it out.
 */
export const standaloneStreamId = '_GET_stream';
