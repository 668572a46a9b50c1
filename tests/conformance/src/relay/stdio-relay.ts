import { randomUUID } from 'node:crypto';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { MemoryEventStore } from '../fixture/memory-event-store.js';
import { listenOnLoopback } from '../harness/web-request-bridge.js';
import { type ChildReadiness, type StdioChild, startStdioChild } from './stdio-child.js';

/** 2025 children kept started ahead of the sessions that will take them. */
const spareChildren = 2;

/**
 * A 2025 session with no request from its client for this long, and none in flight, is ended with its child. HTTP
 * has no end of a connection the way stdio has (the suite's clients seldom send DELETE), and a run opens some thirty
 * sessions; a scenario's session is done long before this.
 */
const idleSessionMs = 10_000;

export interface StdioRelay {
  /** The relay's MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** How many `search-mcp serve` children it started (one per 2025 session, the spares, one for 2026-07-28). */
  readonly childrenStarted: number;
  /** The most children running at once. */
  readonly mostRunning: number;
  /** What went wrong with a child while it served: an exit nobody asked for, non-protocol output on stdout. */
  problems(): string[];
  close(): Promise<void>;
}

/** A client request the child has not answered yet, and what ties the child's notifications to it. */
interface InFlight {
  progressToken: unknown;
}

const progressTokenOf = (message: JSONRPCRequest): unknown => message.params?._meta?.progressToken;

/**
 * Which client request a child's notification or request belongs to. stdio carries no such link, so it is inferred:
 * progress by its token; a log message or a request to the client (sampling, elicitation, roots) goes with the only
 * request in flight. Anything else (list changes, resource updates), and anything while several requests are in
 * flight, belongs to none.
 */
function relatedRequest(
  message: JSONRPCNotification | JSONRPCRequest,
  inFlight: ReadonlyMap<RequestId, InFlight>,
): RequestId | undefined {
  if (message.method === 'notifications/progress') {
    const token = message.params?.progressToken;
    for (const [id, entry] of inFlight) if (entry.progressToken === token) return id;
    return undefined;
  }
  const requestScoped = message.method === 'notifications/message' || isJSONRPCRequest(message);
  if (requestScoped && inFlight.size === 1) return [...inFlight.keys()][0];
  return undefined;
}

/**
 * Streamable HTTP in front of the stdio app (`search-mcp serve`), so the conformance suite, which speaks only HTTP,
 * exercises the stdio app's protocol handling. JSON-RPC messages pass through unchanged in content; the relay adds
 * only what HTTP has and stdio does not.
 *
 * - 2025-11-25: one child per session, started on `initialize` (a spare is kept started and connected, so a session
 *   does not wait for a Node start). The SDK's `WebStandardStreamableHTTPServerTransport` (no MCP server behind it)
 *   does the HTTP side: session ids, POST and GET streams, DELETE. Responses go on the stream of their request; the
 *   child's notifications and requests go where `relatedRequest` says, else on the GET stream. DELETE ends the child.
 * - 2026-07-28: one long-lived child. Each POST carries one request; its id is replaced by a relay id while it is at
 *   the child (concurrent POSTs may reuse an id) and restored on the answer. The answer is JSON, or an SSE stream
 *   when a notification for the request comes first. A client that goes away cancels its request.
 */
export async function startStdioRelay(configPath: string, backendId: string): Promise<StdioRelay> {
  const children: StdioChild[] = [];
  let childrenStarted = 0;
  let mostRunning = 0;
  const start = async (readiness: ChildReadiness) => {
    childrenStarted += 1;
    const child = await startStdioChild(configPath, readiness);
    children.push(child);
    mostRunning = Math.max(mostRunning, children.filter((entry) => entry.running).length);
    return child;
  };

  const modern = await createModernLeg(await start({ when: 'connected', backendId }));
  // Started ahead, so a session does not wait for a Node start; a scenario often opens a session in less time. A
  // child that fails to start fails the session that takes it (HTTP 500), and is reported by `problems()`.
  const startFailures: string[] = [];
  const startSpare = () => {
    const child = start({ when: 'serving' });
    child.catch((error: unknown) => startFailures.push(String(error)));
    return child;
  };
  const spares = Array.from({ length: spareChildren }, startSpare);
  const takeChild = async () => {
    const next = spares.shift() as Promise<StdioChild>;
    spares.push(startSpare());
    return next;
  };

  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const handleLegacy = async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      if (!transport) {
        return Response.json(
          { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Session not found' } },
          {
            status: 404,
          },
        );
      }
      return transport.handleRequest(request);
    }
    if (request.method !== 'POST') {
      return Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no session id' } },
        { status: 400 },
      );
    }
    const child = await takeChild();
    const transport = await connectLegacySession(child, sessions);
    const response = await transport.handleRequest(request);
    // A POST that opened no session (not an initialize, or a refused one) leaves no child behind.
    if (transport.sessionId === undefined) await child.close();
    return response;
  };

  const endpoint = await listenOnLoopback({ legacy: handleLegacy, modern: (request) => modern.handle(request) });

  return {
    url: endpoint.url,
    get childrenStarted() {
      return childrenStarted;
    },
    get mostRunning() {
      return mostRunning;
    },
    problems: () => [
      ...startFailures.map((failure) => `a child did not start: ${failure}`),
      ...children.flatMap((child) => [
        ...(child.unexpectedExit ? [`child ${child.pid} ${child.unexpectedExit}`] : []),
        ...child.strayOutput.map((line) => `child ${child.pid} wrote a non-JSON line to stdout: ${line.slice(0, 200)}`),
      ]),
    ],
    async close() {
      await endpoint.close();
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await Promise.all(spares.map((spare) => spare.then((child) => child.close()).catch(() => {})));
      await Promise.all(children.map((child) => child.close()));
    },
  };
}

/** A 2025 session: the SDK's HTTP transport on one side, the child's stdio on the other. */
async function connectLegacySession(
  child: StdioChild,
  sessions: Map<string, WebStandardStreamableHTTPServerTransport>,
): Promise<WebStandardStreamableHTTPServerTransport> {
  const inFlight = new Map<RequestId, InFlight>();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore: new MemoryEventStore(),
    retryInterval: 100,
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
    },
    onsessionclosed: (id) => {
      sessions.delete(id);
    },
  });
  let idle: NodeJS.Timeout | undefined;
  const expectActivity = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      if (inFlight.size > 0) expectActivity();
      else void transport.close();
    }, idleSessionMs);
    idle.unref();
  };
  transport.onmessage = (message) => {
    expectActivity();
    if (isJSONRPCRequest(message)) inFlight.set(message.id, { progressToken: progressTokenOf(message) });
    child.send(message);
  };
  transport.onclose = () => {
    clearTimeout(idle);
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    void child.close();
  };
  child.onmessage = (message) => {
    let relatedRequestId: RequestId | undefined;
    if (isJSONRPCNotification(message) || isJSONRPCRequest(message)) {
      relatedRequestId = relatedRequest(message, inFlight);
    } else if ('id' in message && message.id !== undefined) {
      inFlight.delete(message.id);
    }
    // A stream the client already closed: the message is stored for a reconnection, or lost with the client.
    transport.send(message, relatedRequestId !== undefined ? { relatedRequestId } : undefined).catch(() => {});
  };
  await transport.start();
  return transport;
}

interface ModernExchange {
  originalId: RequestId;
  progressToken: unknown;
  /** Set once the answer went out as an SSE stream (a notification came first). */
  stream?: ReadableStreamDefaultController<Uint8Array>;
  respond: (response: Response) => void;
}

/**
 * The 2026-07-28 leg: one child, one request per POST, relay ids while at the child. The relay opens the child as a
 * 2026-07-28 stdio client would, with `server/discover` and `tools/list` (both with the envelope), before any
 * scenario: the stdio app settles its client's era on the first request other than `server/discover`, and the suite's
 * first 2026 scenario (`server-stateless`, not scored for this target) opens with requests whose envelope is missing
 * on purpose. Were that the first, the child would serve every later request in the 2025 shape (a Search MCP bug; see
 * README).
 */
async function createModernLeg(child: StdioChild): Promise<{ handle(request: Request): Promise<Response> }> {
  const exchanges = new Map<string, ModernExchange>();
  const encoder = new TextEncoder();
  let sequence = 0;
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {}, roots: {} },
    'io.modelcontextprotocol/clientInfo': { name: 'conformance-stdio-relay', version: '0' },
  };
  for (const method of ['server/discover', 'tools/list']) {
    const id = `relay-${method}`;
    await new Promise<void>((resolve, reject) => {
      child.onmessage = (message) => {
        if (!('id' in message) || message.id !== id) return;
        if ('error' in message) reject(new Error(`${method} failed: ${JSON.stringify(message.error)}`));
        else resolve();
      };
      child.send({ jsonrpc: '2.0', id, method, params: { _meta: envelope } });
    });
  }
  const frame = (message: JSONRPCMessage) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

  const toStream = (exchange: ModernExchange): ReadableStreamDefaultController<Uint8Array> => {
    if (exchange.stream) return exchange.stream;
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (opened) => {
        controller = opened;
      },
    });
    exchange.stream = controller as ReadableStreamDefaultController<Uint8Array>;
    exchange.respond(
      new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } }),
    );
    return exchange.stream;
  };

  child.onmessage = (message) => {
    if (isJSONRPCNotification(message) || isJSONRPCRequest(message)) {
      const inFlight = new Map([...exchanges].map(([id, exchange]) => [id, { progressToken: exchange.progressToken }]));
      const related = relatedRequest(message, inFlight);
      const exchange = related === undefined ? undefined : exchanges.get(String(related));
      // Not placeable: 2026-07-28 has no stream outside a request (subscriptions/listen is not relayed).
      if (exchange) toStream(exchange).enqueue(frame(message));
      return;
    }
    const relayId = 'id' in message ? String(message.id) : '';
    const exchange = exchanges.get(relayId);
    if (!exchange) return;
    exchanges.delete(relayId);
    const answer = { ...message, id: exchange.originalId } as JSONRPCMessage;
    if (exchange.stream) {
      exchange.stream.enqueue(frame(answer));
      exchange.stream.close();
    } else {
      exchange.respond(Response.json(answer));
    }
  };

  return {
    async handle(request) {
      if (request.method !== 'POST') {
        return new Response(null, { status: 405, headers: { allow: 'POST' } });
      }
      let message: JSONRPCMessage;
      try {
        message = (await request.json()) as JSONRPCMessage;
      } catch {
        return Response.json(
          { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
          {
            status: 400,
          },
        );
      }
      if (!isJSONRPCRequest(message)) {
        child.send(message);
        return new Response(null, { status: 202 });
      }
      sequence += 1;
      const relayId = `relay-${sequence}`;
      return new Promise<Response>((respond) => {
        exchanges.set(relayId, { originalId: message.id, progressToken: progressTokenOf(message), respond });
        request.signal.addEventListener('abort', () => {
          const exchange = exchanges.get(relayId);
          if (!exchange || !exchanges.delete(relayId)) return;
          try {
            exchange.stream?.close();
          } catch {
            // Already closed by the client going away.
          }
          child.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: relayId } });
        });
        child.send({ ...message, id: relayId });
      });
    },
  };
}
