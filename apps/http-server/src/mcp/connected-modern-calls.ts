import type { ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  isJsonContentType,
  type JSONRPCMessage,
  ProtocolErrorCode,
  type Server,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { isRecord, type SecretRedactor } from '@search-mcp/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { carriesEnvelopeClaim, headerOf } from './legacy-post.js';

/** The methods served here: the calls a 2026-07-28 client makes most. Every other request goes to the SDK's handler. */
const connectedMethods: ReadonlySet<string> = new Set(['tools/call', 'tools/list']);
/** The one 2026-07-28 revision the SDK serves (`SUPPORTED_MODERN_PROTOCOL_VERSIONS` of @modelcontextprotocol/server). */
const servedRevision = '2026-07-28';
/** How often a streamed answer sends a comment while nothing else goes out (the SDK handler's default). */
const keepAliveMs = 15_000;
const sseHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** A request `takes` accepted: its parsed body, with the client's id. */
export interface ConnectedCall {
  readonly body: Record<string, unknown> & { id: string | number; method: string };
}

export interface ConnectedModernCallsOptions {
  redactor: SecretRedactor;
  /** Connections kept with no request in flight, in all (the least recently used is closed past it). */
  idleTotal?: number;
  /** How long a connection nobody used is kept. */
  idleMs?: number;
}

/** The JSON-RPC error a shutdown answers requests in flight with (both paths of the 2026-07-28 leg). */
export interface JsonRpcErrorBody {
  code: number;
  message: string;
}

/** One HTTP request being answered on a connection. */
interface Exchange {
  readonly clientId: string | number;
  readonly raw: ServerResponse;
  /** Whether the answer went to SSE (a notification of the request came before its result). */
  streaming: boolean;
  keepAlive: NodeJS.Timeout | undefined;
  finished: boolean;
  readonly done: () => void;
}

type RequestId = string | number;

/** How many ids of requests cancelled on a connection are kept from reuse (their handling may still be running). */
const cancelledIdsKept = 1000;

/** One caller's connected instance. */
interface CallerConnection {
  readonly key: string;
  readonly server: Server;
  readonly wire: Transport;
  readonly close: () => Promise<void>;
  /** The requests in flight, by the id they carry on the connection (unique there: clients' ids may repeat). */
  readonly exchanges: Map<RequestId, Exchange>;
  /** Ids of requests cancelled here, oldest first: a request cancelled may still be running on the instance. */
  readonly cancelled: Set<RequestId>;
  /** Whether a message ever reached the instance (connecting it). */
  delivered: boolean;
  nextId: number;
  lastUsed: number;
}

/**
 * The hot 2026-07-28 requests (`tools/call`, `tools/list`) answered on a server instance connected once per caller,
 * not through the SDK's `createMcpHandler`. That handler connects an instance to a new transport for every request,
 * closes it after, classifies the request again and answers through a web `Response`: measured in one process with
 * the same server and a trivial call, 150–175 µs of the SDK's CPU per request against 50–60 µs for the same request
 * on a connected 2026-07-28 instance and about 30 µs on a 2025 session (`pnpm bench:modern-handler`). The connection
 * is the SDK's own 2026-07-28 serving of a connected stream, `serveStdio`, over an in-memory wire (its public
 * `transport` option): the SDK pins the instance to the revision and handles each request's envelope as on stdio.
 *
 * Only requests the SDK's handler would serve as they are come here (`takes`): a JSON POST whose body is a
 * 2026-07-28 request of one of those methods, valid by the SDK's own classification (`classifyInboundRequest`:
 * envelope, `MCP-Protocol-Version` and `Mcp-Method` against the body), with both headers present and, for a
 * `tools/call`, an `Mcp-Name` equal to the tool's name. Anything else (a refusal to shape, a header in Base64 form,
 * another method, a notification) goes to the SDK's handler, which answers it as before. The guard test
 * (`connected-modern-calls.test.ts`) sends the same requests both ways and compares the answers.
 *
 * Answers are the handler's: JSON (`200`), or an SSE stream when a notification of the request (progress, a log
 * message it asked for) comes before its result; an error the instance answers is `200` like any in-band error,
 * except a missing client capability (`400`, the SDK's rule). A request carries its client's id on the connection
 * (what audit records and spans name), or one of ours when a request in flight there has it (two clients of one
 * caller may use one id at once); the answer carries the client's. The client closing the
 * response early cancels the request (`notifications/cancelled` on the connection, as on stdio); a response that
 * ended normally cancels nothing, so a call answered `input_required` goes on waiting for the retry. A streamed answer
 * the client reads slowly holds its instance's sender back (as the SDK handler's stream does), rather than buffering.
 */
export class ConnectedModernCalls {
  private readonly connections = new Map<string, CallerConnection>();
  private readonly idleTotal: number;
  private readonly idleMs: number;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;
  /** What a request that comes after the shutdown began is answered with (the shutdown's error). */
  private closeError: JsonRpcErrorBody | undefined;

  constructor(private readonly options: ConnectedModernCallsOptions) {
    this.idleTotal = options.idleTotal ?? 128;
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** The request, if it is one served here; `undefined` leaves it to the SDK's handler. */
  takes(request: FastifyRequest): ConnectedCall | undefined {
    const body = request.body;
    if (this.closed || !isRecord(body) || body.jsonrpc !== '2.0') return undefined;
    const { id, method } = body;
    if (typeof method !== 'string' || !connectedMethods.has(method)) return undefined;
    if ((typeof id !== 'string' && typeof id !== 'number') || !carriesEnvelopeClaim(body)) return undefined;
    if (!isJsonContentType(headerOf(request, 'content-type'))) return undefined;
    const protocolVersionHeader = headerOf(request, 'mcp-protocol-version');
    const mcpMethodHeader = headerOf(request, 'mcp-method');
    const mcpNameHeader = headerOf(request, 'mcp-name');
    if (protocolVersionHeader !== servedRevision || mcpMethodHeader !== method) return undefined;
    if (method === 'tools/call') {
      const name = isRecord(body.params) ? body.params.name : undefined;
      if (typeof name !== 'string' || mcpNameHeader !== name) return undefined;
    }
    const outcome = classifyInboundRequest({
      httpMethod: request.method,
      protocolVersionHeader,
      mcpMethodHeader,
      ...(mcpNameHeader !== undefined ? { mcpNameHeader } : {}),
      body,
    });
    if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
    if (outcome.classification.revision !== servedRevision) return undefined;
    return { body: body as ConnectedCall['body'] };
  }

  /**
   * The connected instance of `key` (a caller), opened now with `build` (the era factory's instance for it) if it has
   * none: what a call is checked against before it runs.
   */
  serverFor(key: string, build: () => Server): Server {
    const connection = this.connectionFor(key, build);
    connection.lastUsed = Date.now();
    return connection.server;
  }

  /** Answers `call` on the connection of `key`; resolves once the answer is out or the client is gone. */
  async serve(
    key: string,
    build: () => Server,
    call: ConnectedCall,
    reply: FastifyReply,
  ): Promise<'answered' | 'abandoned'> {
    if (this.closed) {
      // Taken before the shutdown began, its header check awaited across it: answered as the calls in flight were.
      if (!this.closeError) await reply.code(503).send();
      else await reply.code(200).send({ jsonrpc: '2.0', id: call.body.id, error: this.closeError });
      return 'abandoned';
    }
    reply.hijack();
    const raw = reply.raw;
    // Gone while the request waited (its header check): nothing to answer, nothing to run.
    if (raw.destroyed) return 'abandoned';
    const connection = this.connectionFor(key, build);
    connection.lastUsed = Date.now();
    const wireId = this.wireIdFor(connection, call.body.id);
    return new Promise((resolve) => {
      const exchange: Exchange = {
        clientId: call.body.id,
        raw,
        streaming: false,
        keepAlive: undefined,
        finished: false,
        done: () => {
          connection.exchanges.delete(wireId);
          connection.lastUsed = Date.now();
          // Past the cap of unused connections, the least recently used goes now, not at the next sweep.
          if (this.connections.size > this.idleTotal) this.sweep();
          else this.scheduleSweep();
          resolve(exchange.finished ? 'answered' : 'abandoned');
        },
      };
      connection.exchanges.set(wireId, exchange);
      raw.once('close', () => {
        if (!connection.exchanges.has(wireId)) return;
        // The client left before the answer: the request is cancelled, as a 2026-07-28 client cancels over HTTP.
        clearInterval(exchange.keepAlive);
        exchange.done();
        this.cancel(connection, wireId, 'The client closed the response stream');
      });
      connection.delivered = true;
      connection.wire.onmessage?.({ ...call.body, id: wireId } as JSONRPCMessage);
    });
  }

  /**
   * At shutdown: answers every request in flight with `error` (as the SDK handler's leg does), cancels it on its
   * connection, then closes every connection.
   */
  async close(error?: JsonRpcErrorBody): Promise<void> {
    this.closed = true;
    this.closeError = error;
    clearTimeout(this.sweeper);
    const connections = [...this.connections.values()];
    this.connections.clear();
    for (const connection of connections) {
      for (const [wireId, exchange] of [...connection.exchanges]) {
        if (error) this.finish(exchange, { jsonrpc: '2.0', id: exchange.clientId, error }, 200);
        else {
          clearInterval(exchange.keepAlive);
          exchange.done();
          exchange.raw.destroy();
        }
        this.cancel(connection, wireId, 'The server is shutting down');
      }
    }
    await Promise.all(connections.map((connection) => connection.close().catch(() => {})));
  }

  private connectionFor(key: string, build: () => Server): CallerConnection {
    const open = this.connections.get(key);
    if (open) return open;
    const server = build();
    const exchanges = new Map<RequestId, Exchange>();
    const wire: Transport = {
      start: async () => {},
      close: async () => {
        this.ended(connection);
        wire.onclose?.();
      },
      send: (message, options) => this.deliver(exchanges, message, options) ?? Promise.resolve(),
    };
    const handle = serveStdio(() => server, { transport: wire, legacy: 'reject' });
    const connection: CallerConnection = {
      key,
      server,
      wire,
      close: async () => {
        await handle.close();
        // Never connected (its only request refused before it ran): the SDK's close does nothing to it, so its own
        // `onclose`, where it leaves the runtime's hub, is run here, as for the handler's unconnected instances.
        if (!connection.delivered && server.transport === undefined) server.onclose?.();
      },
      exchanges,
      cancelled: new Set(),
      delivered: false,
      nextId: 1,
      lastUsed: Date.now(),
    };
    this.connections.set(key, connection);
    this.scheduleSweep();
    return connection;
  }

  /**
   * The id a request carries on the connection: the client's own (what the instance's audit records and spans name),
   * unless a request in flight there, or one cancelled there that may still run, has it; then one of ours.
   */
  private wireIdFor(connection: CallerConnection, clientId: RequestId): RequestId {
    let id = clientId;
    while (connection.exchanges.has(id) || connection.cancelled.has(id)) id = `search-mcp:${connection.nextId++}`;
    return id;
  }

  /** Cancels a request on its connection; its id is kept from reuse while its handling may still be running. */
  private cancel(connection: CallerConnection, wireId: RequestId, reason: string): void {
    connection.cancelled.add(wireId);
    if (connection.cancelled.size > cancelledIdsKept) {
      const oldest = connection.cancelled.values().next().value;
      if (oldest !== undefined) connection.cancelled.delete(oldest);
    }
    connection.wire.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: wireId, reason },
    });
  }

  /**
   * The connection ended (closed here, or its instance closed): it serves nothing more, and a request still in flight
   * on it is answered with an internal error rather than left waiting.
   */
  private ended(connection: CallerConnection): void {
    if (this.connections.get(connection.key) === connection) this.connections.delete(connection.key);
    for (const exchange of [...connection.exchanges.values()]) {
      this.finish(
        exchange,
        { jsonrpc: '2.0', id: exchange.clientId, error: { code: -32603, message: 'The server instance closed' } },
        200,
      );
    }
  }

  /**
   * A message of the instance: the answer or a notification of a request in flight; anything else is dropped. A
   * notification the socket cannot take now resolves once it can (or the client is gone): the instance's sender waits,
   * so a backend flooding a slow client is held back rather than buffered without end.
   */
  private deliver(
    exchanges: Map<RequestId, Exchange>,
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
  ): Promise<void> | undefined {
    if ('id' in message && ('result' in message || 'error' in message)) {
      const exchange = message.id === undefined ? undefined : exchanges.get(message.id);
      if (!exchange) return;
      const error = 'error' in message ? message.error : undefined;
      // In-band errors are answered 200; a missing client capability is 400 (the SDK handler's rule).
      const status = error?.code === ProtocolErrorCode.MissingRequiredClientCapability ? 400 : 200;
      this.finish(exchange, { ...message, id: exchange.clientId }, status);
      return;
    }
    const related = options?.relatedRequestId;
    const exchange = related === undefined ? undefined : exchanges.get(related);
    if (!exchange || exchange.finished || exchange.raw.destroyed) return;
    if (!exchange.streaming) {
      exchange.streaming = true;
      exchange.raw.writeHead(200, sseHeaders);
      exchange.keepAlive = setInterval(() => exchange.raw.write(': keepalive\n\n'), keepAliveMs);
      exchange.keepAlive.unref();
    }
    if (!exchange.raw.write(this.frame(message))) return drained(exchange.raw);
    return undefined;
  }

  /** Writes the request's answer: whole JSON with its length, or the last frame of its stream. */
  private finish(exchange: Exchange, answer: JSONRPCMessage, status: number): void {
    if (exchange.finished) return;
    exchange.finished = true;
    clearInterval(exchange.keepAlive);
    const { raw } = exchange;
    if (!raw.destroyed) {
      if (exchange.streaming) raw.end(this.frame(answer));
      else {
        const body = this.options.redactor.redact(JSON.stringify(answer));
        raw.writeHead(status, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        });
        raw.end(body);
      }
    }
    exchange.done();
  }

  private frame(message: JSONRPCMessage): string {
    return this.options.redactor.redact(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** Closes connections nobody used for `idleMs`, and the least recently used past `idleTotal` idle ones. */
  private scheduleSweep(): void {
    if (this.sweeper || this.closed) return;
    this.sweeper = setTimeout(
      () => {
        this.sweeper = undefined;
        this.sweep();
      },
      Math.min(this.idleMs, 5_000),
    );
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = Date.now();
    const idle = [...this.connections.values()]
      .filter((connection) => connection.exchanges.size === 0)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    let excess = idle.length - this.idleTotal;
    for (const connection of idle) {
      if (excess <= 0 && now - connection.lastUsed < this.idleMs) continue;
      excess -= 1;
      this.connections.delete(connection.key);
      void connection.close().catch(() => {});
    }
    if (this.connections.size > 0) this.scheduleSweep();
  }
}

/** Resolves once `raw` takes writes again, or is closed. */
function drained(raw: ServerResponse): Promise<void> {
  if (raw.destroyed || raw.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}
