import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { isRecord, type ParamHeaderMismatch, type SecretRedactor } from '@search-mcp/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authInfoOf, callerOfAuthInfo } from './caller-auth-info.js';
import type { EraServerFactory } from './era-server-factory.js';
import type { ListenStreams } from './listen-streams.js';
import type { McpServerOverrides } from './mcp-server-factory.js';
import { type ConnectedCall, ConnectedModernCalls, type JsonRpcErrorBody } from './connected-modern-calls.js';
import { headerOf, isLegacyPost } from './legacy-post.js';
import { headerMismatchError, paramHeaderMismatch } from './param-header-check.js';
import { CallerInstancePool } from './caller-instance-pool.js';
import type { PendingRequestListener } from './tracked-transport.js';
import { sendWebResponse, toHandlerRequest } from './web-request-bridge.js';

export interface ModernMcpLegOptions {
  serverFactory: EraServerFactory;
  /** The session's rules, applied per request here: who the caller is, and its project. */
  overridesFor(caller: Caller): McpServerOverrides;
  redactor: SecretRedactor;
  activity: PendingRequestListener;
  /** Serves `subscriptions/listen`; without it the SDK's own router answers (nothing is ever published there). */
  listen?: ListenStreams;
  /**
   * Whether the hot requests (`tools/call`, `tools/list`) are answered on a connected instance per caller
   * (`ConnectedModernCalls`) rather than through the SDK's handler. Default true; false sends every request through
   * the handler (the guard test compares the two).
   */
  connectedCalls?: boolean;
}

export interface ModernMcpLeg {
  /** 2026-07-28 requests served since start (`subscriptions/listen` included). */
  readonly requestCount: number;
  /** Whether this request is 2026-07-28 traffic: a POST the SDK's classification does not route to 2025 sessions. */
  accepts(request: FastifyRequest): boolean;
  serve(request: FastifyRequest, reply: FastifyReply, caller: Caller): Promise<void>;
  /**
   * At shutdown: ends the listen streams, answers every request still running with `error` (a JSON-RPC error, as the
   * 2025 sessions' requests get), then aborts their handlers (the backend calls are cancelled).
   */
  close(error?: JsonRpcErrorBody): Promise<void>;
}

/**
 * `/mcp` for 2026-07-28 clients, next to the sessionful 2025 endpoint, no `Mcp-Session-Id`. `tools/call` and
 * `tools/list` whose headers the SDK would take as they are go to the caller's connected instance
 * (`ConnectedModernCalls`); every other request to the SDK's `createMcpHandler` with `legacy: 'reject'` (2025 traffic
 * never reaches it: the endpoint routes it to its sessions). There a request is served by a server instance of its
 * caller's, taken from a pool (`CallerInstancePool`) rather than built for it (building and ending one per request
 * was most of this leg's extra CPU against a 2025 session): an instance serves one request at a time, and what it
 * keeps between requests is only what its caller's next one would build. The SDK checks `Mcp-Method`/`Mcp-Name`
 * against the body (`400`, `-32020`); the `Mcp-Param-*` headers of a `tools/call` are checked here against the
 * `x-mcp-header` arguments of the tool as listed to the caller (SEP-2243, same answer), at the SDK's own step for
 * them: after its header, version and capability checks (the factory is called only then), before anything runs.
 * Tokens and projects hold as on the 2025 leg: the caller the auth hook resolved rides to the factory as `authInfo`
 * (to the connected instances, in their key). `subscriptions/listen` goes to the listen streams, which publish only
 * what each caller may see.
 *
 * A request's work may outlive its response: when a call answers `input_required` (a backend asked for input), the
 * backend call waits in the runtime for the client's retry, a new POST. Only the client closing the response stream
 * early cancels (the SDK aborts the handler); a response that ended normally aborts nothing.
 */
export function createModernMcpLeg(options: ModernMcpLegOptions): ModernMcpLeg {
  const instances = new CallerInstancePool<ReturnType<EraServerFactory>>();
  const connected =
    options.connectedCalls === false ? undefined : new ConnectedModernCalls({ redactor: options.redactor });
  /** The caller's key: everything its instances are made with (`callerOfAuthInfo` builds it in one order). */
  const keyOf = (era: string, caller: Caller) => `${era}\u0000${JSON.stringify(caller)}`;
  /** The parsed bodies of the `tools/call` requests being served, for the factory's `Mcp-Param-*` check. */
  const calls = new WeakMap<Request, Record<string, unknown>>();
  /** The calls refused by that check: the factory throws (nothing runs), and `serve` answers 400 itself. */
  const refused = new WeakMap<Request, ParamHeaderMismatch>();
  const handler = createMcpHandler(
    async (context) => {
      const caller = callerOfAuthInfo(context.authInfo);
      const overrides = options.overridesFor(caller);
      const request = context.requestInfo;
      const server = instances.acquire(keyOf(context.era, caller), request, () =>
        options.serverFactory({ era: context.era }, overrides),
      );
      const call = request && calls.get(request);
      if (request && call) {
        const meta = isRecord(call.params) && isRecord(call.params._meta) ? call.params._meta : undefined;
        const mismatch = await paramHeaderMismatch(server, overrides.resolveCaller({ meta }), call, request.headers);
        if (mismatch) {
          refused.set(request, mismatch);
          throw new Error(mismatch.reason);
        }
      }
      return server;
    },
    { legacy: 'reject' },
  );
  let requestCount = 0;
  /** A hot request on the caller's connected instance: its `Mcp-Param-*` headers checked first, as on the handler. */
  const serveConnected = async (
    connections: ConnectedModernCalls,
    call: ConnectedCall,
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
  ) => {
    options.activity.requestStarted();
    try {
      const overrides = options.overridesFor(caller);
      const params = isRecord(call.body.params) ? call.body.params : {};
      const meta = isRecord(params._meta) ? params._meta : undefined;
      // A message may name its project (`_meta.projectId`): one connection per project named, so every request on an
      // instance resolves to one caller (the instance keeps the caller of its latest request).
      const project = typeof meta?.projectId === 'string' ? meta.projectId : '';
      const key = `${keyOf('modern', caller)}\u0000${project}`;
      const build = () => options.serverFactory({ era: 'modern' }, overrides);
      if (call.body.method === 'tools/call') {
        const mismatch = await paramHeaderMismatch(
          connections.serverFor(key, build),
          overrides.resolveCaller({ meta }),
          call.body,
          {
            get: (name) => headerOf(request, name.toLowerCase()),
          },
        );
        if (mismatch) {
          const refusal = JSON.stringify({ jsonrpc: '2.0', id: call.body.id, error: headerMismatchError(mismatch) });
          return await reply.code(400).type('application/json').send(options.redactor.redact(refusal));
        }
      }
      await connections.serve(key, build, call, reply);
    } finally {
      options.activity.requestEnded();
    }
  };
  /** Requests being answered: a shutdown answers them itself (each resolves once its answer is written). */
  const running = new Set<(error: JsonRpcErrorBody) => Promise<void>>();
  return {
    get requestCount() {
      return requestCount;
    },
    accepts: (request) => request.method === 'POST' && !isLegacyPost(request),
    serve: async (request, reply, caller) => {
      requestCount += 1;
      // A listen stream is not a call in flight: the shutdown ends it rather than waiting for it.
      if (options.listen && isRecord(request.body) && request.body.method === 'subscriptions/listen') {
        return options.listen.serve(request, reply, caller);
      }
      const call = connected?.takes(request);
      if (connected && call) return serveConnected(connected, call, request, reply, caller);
      options.activity.requestStarted();
      // Method, URL and headers only: the handler gets the body parsed (`parsedBody`) and reads nothing else.
      const webRequest = toHandlerRequest(request);
      const id = isRecord(request.body) ? request.body.id : undefined;
      if (isRecord(request.body) && request.body.method === 'tools/call') calls.set(webRequest, request.body);
      let stop: (error: JsonRpcErrorBody) => void = () => {};
      const stopped = new Promise<JsonRpcErrorBody>((resolve) => {
        stop = resolve;
      });
      let finished: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        finished = resolve;
      });
      let stoppedEarly = false;
      const interrupt = (error: JsonRpcErrorBody) => {
        stoppedEarly = true;
        stop(error);
        return done;
      };
      running.add(interrupt);
      // Whether the whole answer went out: only then is the request's handler known to be done with its instance.
      let answered = false;
      try {
        const fetched = handler.fetch(webRequest, { authInfo: authInfoOf(caller), parsedBody: request.body });
        const first = await Promise.race([fetched, stopped]);
        const answer = (error: JsonRpcErrorBody) => ({ jsonrpc: '2.0', id: id ?? null, error });
        const mismatch = refused.get(webRequest);
        if (first instanceof Response && mismatch) {
          // The SDK answered the factory's refusal as an internal error: the answer is a header mismatch (SEP-2243).
          void first.body?.cancel().catch(() => {});
          const refusal = JSON.stringify(answer(headerMismatchError(mismatch)));
          answered = true;
          return reply.code(400).type('application/json').send(options.redactor.redact(refusal));
        }
        if (!(first instanceof Response)) {
          // Shut down before the handler answered: the answer is ours, whatever the handler writes after.
          void fetched.then((late) => late.body?.cancel()).catch(() => {});
          if (id === undefined) return reply.code(503).send();
          return reply.code(200).send(answer(first));
        }
        await sendWebResponse(reply, first, options.redactor, id === undefined ? undefined : stopped.then(answer));
        // Ended by the answer itself, not by the client leaving (the socket is destroyed before the end is written).
        answered = reply.raw.writableEnded && !stoppedEarly;
      } finally {
        instances.release(webRequest, answered ? 'answered' : 'abandoned');
        running.delete(interrupt);
        finished();
        options.activity.requestEnded();
      }
    },
    close: async (error) => {
      await options.listen?.close();
      // Answered first, aborted after: aborting first would end the streams before the answers are on them.
      if (error) await Promise.all([...running].map((interrupt) => interrupt(error)));
      await connected?.close(error);
      await handler.close();
      instances.close();
    },
  };
}
