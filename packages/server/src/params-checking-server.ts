import {
  type Implementation,
  isInputRequiredResult,
  type JSONRPCRequest,
  type Result,
  Server,
  type ServerContext,
  type ServerOptions,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/server';
import { withoutBackendServerInfo } from './backend-server-info.js';
import { type CacheHint, withCacheHint } from './cache-hints.js';
import { type ConnectedClient, modernClientOf } from './connected-client.js';
import { dispatchRequestsDirectly } from './direct-request-dispatch.js';
import { clientEraOf } from './eras/client-era-of.js';
import type { ClientFacingEra } from './eras/client-facing-era.js';
import {
  type HandledMethod,
  type HandledRequests,
  type ParamsCheckedHandler,
  taskMethods,
} from './handled-requests.js';
import { requestExtraOf } from './request-extra.js';
import { checkRequestParams } from './request-params-check.js';
import type { RequestExtra } from './request-extra-types.js';
import { invokeInputRequiredSeam, sdkHandlerWrapper } from './sdk-server-internals.js';

/** Params are checked before (`checkRequestParams`, against the spec's task schemas): any object passes here. */
const anyParams: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'search-mcp', validate: (value) => ({ value }) },
};

/** Changes the SDK's own `initialize` (2025) or `server/discover` (2026-07-28) result before it goes out. */
export type HandshakeResultTransform = (result: Result, extra: RequestExtra) => Promise<Result>;

/** How the serving entry built this instance: the era it serves, fixed before the first request. */
export interface ServedEra {
  /** `modern` = 2026-07-28 (the serving entry saw an enveloped first request); default `legacy` (2025 revisions). */
  era?: 'legacy' | 'modern';
}

/**
 * The 2.x SDK's low-level `Server` (both protocol eras, the era fixed per instance by the serving entry), except:
 *
 * - a request whose params do not fit its method is answered `-32602 Invalid params` with one readable line
 *   (`request-params-check.ts`);
 * - `tools/call` results pass unchanged: the SDK's re-validation of results would judge backends' content blocks. Its
 *   multi-round-trip seam stays: an `input_required` answer is checked against a 2026-07-28 request's capabilities,
 *   or turned into real push requests to a 2025 client by the SDK's legacy shim (which re-enters the handler);
 * - handlers get an era-blind `RequestExtra` (signal, id, session, notify, send, client capabilities, a retry's
 *   `inputResponses` and `requestState`), so one handler serves both eras;
 * - `transformHandshakeResult` lets the `initialize` / `server/discover` answer name the backends' instructions;
 * - an inbound request goes to the request dispatch without first failing the SDK's two response schemas
 *   (`direct-request-dispatch.ts`);
 * - the error the SDK hands what still waits on a closing connection carries no stack (`_onclose`).
 *
 * What reaches below the SDK's public API is in `sdk-server-internals.ts`, nowhere else.
 */
export class ParamsCheckingServer extends Server {
  // Read when a request arrives, never while the SDK's constructor registers `initialize` (before these exist).
  /** The rules of the era this instance serves (`eras/`), fixed by the serving entry when it built the instance. */
  readonly clientEra: ClientFacingEra;
  private readonly ownSchemas = new Map<string, StandardSchemaV1>();
  private handshakeTransform: HandshakeResultTransform | undefined;
  private cacheHintSource: ((method: string) => CacheHint | undefined) | undefined;
  private clientListener: ((client: ConnectedClient) => void) | undefined;
  private connectedNow: (() => void) | undefined;
  /**
   * Resolves when the client has connected, the moment `onClientConnected` names (a 2025 client's
   * `notifications/initialized`): requests of our own to the client wait for it, as the spec asks.
   */
  readonly clientConnected = new Promise<void>((resolve) => {
    this.connectedNow = resolve;
  });
  /** The revision a 2025 client agreed to in `initialize` (its answer says it). */
  private legacyProtocolVersion: string | undefined;

  constructor(serverInfo: Implementation, options?: ServerOptions, served: ServedEra = {}) {
    super(serverInfo, options);
    this.clientEra = clientEraOf(served.era ?? 'legacy');
  }

  /**
   * Registers `handler` for `method`. `requestSchema` (a schema of the whole request) replaces the spec's where the
   * aggregate accepts more, or words its errors itself.
   */
  handle<M extends HandledMethod>(method: M, handler: ParamsCheckedHandler<M>, requestSchema?: StandardSchemaV1): void {
    if (requestSchema) this.ownSchemas.set(method, requestSchema);
    const call = (request: unknown, context: ServerContext) =>
      handler(request as HandledRequests[M], requestExtraOf(context, this));
    // Task methods are no spec methods for the SDK; a method with a schema of ours must not be judged by the SDK's
    // schema first (its message is a zod dump): both go through the SDK's custom-params path, params checked above.
    if (taskMethods.has(method) || requestSchema) {
      const register = this.setRequestHandler as unknown as (
        method: string,
        schemas: { params: StandardSchemaV1 },
        handler: (params: Record<string, unknown>, context: ServerContext) => unknown,
      ) => void;
      register.call(this, method, { params: anyParams }, (params, context) => call({ method, params }, context));
      return;
    }
    const register = this.setRequestHandler as unknown as (
      method: string,
      handler: (request: unknown, context: ServerContext) => unknown,
    ) => void;
    register.call(this, method, call);
  }

  /** Connects as the SDK does; requests then skip its tries of the response schemas (`dispatchRequestsDirectly`). */
  override async connect(transport: Transport): Promise<void> {
    const before = transport.onmessage;
    await super.connect(transport);
    dispatchRequestsDirectly(this, transport, before);
  }

  /**
   * The SDK's close hook for subclasses. At every close the SDK builds a "Connection closed" error for whatever still
   * waits on the connection (usually nothing), and capturing its stack, the close path's own and of use to no one, was
   * the largest single cost a 2026-07-28 request adds to its call (the instance's exchange closes after each request:
   * `pnpm bench:http`). It is built without one; the limit is back before the instance's own `onclose` runs, so
   * nothing else loses its stack.
   */
  protected override _onclose(): void {
    const limit = Error.stackTraceLimit;
    const onclose = this.onclose;
    let restored = false;
    const restore = () => {
      if (restored) return;
      restored = true;
      Error.stackTraceLimit = limit;
      if (this.onclose === closing) this.onclose = onclose;
    };
    const closing = () => {
      restore();
      onclose?.call(this);
    };
    this.onclose = closing;
    Error.stackTraceLimit = 0;
    try {
      super._onclose();
    } finally {
      restore();
    }
  }

  /** One transform for `initialize` and `server/discover`; a later call replaces it. */
  transformHandshakeResult(transform: HandshakeResultTransform): void {
    this.handshakeTransform = transform;
  }

  /**
   * Where 2026-07-28 answers get their `ttlMs`/`cacheScope`: asked per answer (the hint follows the servers' states),
   * `undefined` = none. Fields a result already has win. 2025-era answers never get them.
   */
  hintCaches(source: (method: string) => CacheHint | undefined): void {
    this.cacheHintSource = source;
  }

  /**
   * `listener` hears once who connected: a 2025 client when `initialized` arrives, a 2026-07-28 client with its
   * first request (its envelope names it).
   */
  onClientConnected(listener: (client: ConnectedClient) => void): void {
    this.clientListener = listener;
    this.oninitialized = () => {
      const info = this.getClientVersion();
      this.tellClient({
        era: 'legacy',
        protocolVersion: this.legacyProtocolVersion,
        name: info?.name,
        version: info?.version,
      });
    };
  }

  private tellClient(client: ConnectedClient): void {
    this.connectedNow?.();
    const listener = this.clientListener;
    this.clientListener = undefined;
    listener?.(client);
  }

  /**
   * `tools/call` through the SDK's multi-round-trip seam, which acts only on a retry (`requestState`), on an
   * `input_required` answer and on a thrown URL elicitation: a call that simply completes (nearly all) skips it,
   * saving its promises on every forwarded call. Otherwise the seam gets the first answer replayed, then the handler.
   */
  private callThroughSeam(
    method: string,
    handler: (request: JSONRPCRequest, context: ServerContext) => Promise<Result>,
    request: JSONRPCRequest,
    context: ServerContext,
  ): Promise<Result> {
    if (context.mcpReq.requestState() !== undefined)
      return invokeInputRequiredSeam(this, method, handler, request, context);
    const replaying = (first: Promise<Result>) => {
      let replayed = false;
      return (again: JSONRPCRequest, againContext: ServerContext) => {
        if (replayed) return handler(again, againContext);
        replayed = true;
        return first;
      };
    };
    let first: Promise<Result>;
    try {
      first = handler(request, context);
    } catch (error) {
      first = Promise.reject(error);
    }
    return first.then(
      (result) =>
        isInputRequiredResult(result)
          ? invokeInputRequiredSeam(this, method, replaying(Promise.resolve(result)), request, context)
          : result,
      (error: unknown) => invokeInputRequiredSeam(this, method, replaying(Promise.reject(error)), request, context),
    );
  }

  /** The SDK's documented hook for subclasses to wrap every registered handler. */
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, context: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, context: ServerContext) => Promise<Result> {
    // `tools/call` skips the SDK's result validation (it would judge backends' content blocks) but keeps its
    // multi-round-trip seam: `input_required` checked against the request's capabilities (2026-07-28), or fulfilled
    // by the legacy shim with real push requests for a 2025 client, which re-enters the handler with the answers.
    // Every other method keeps the Server's wrapper (cache hints, input_required checks).
    const inner =
      method === 'tools/call'
        ? (request: JSONRPCRequest, context: ServerContext) => this.callThroughSeam(method, handler, request, context)
        : sdkHandlerWrapper(this, method, handler);
    const isHandshake = method === 'initialize' || method === 'server/discover';
    return async (request, context) => {
      if (this.clientListener && this.clientEra.namedByFirstRequest) {
        this.tellClient(modernClientOf(context.mcpReq.envelope as Record<string, unknown> | undefined));
      }
      checkRequestParams(method, request, this.ownSchemas.get(method));
      let result = withoutBackendServerInfo(await inner(request, context));
      if (method === 'initialize' && typeof result.protocolVersion === 'string') {
        this.legacyProtocolVersion = result.protocolVersion;
      }
      const transform = isHandshake ? this.handshakeTransform : undefined;
      if (transform) result = await transform(result, requestExtraOf(context, this));
      const hint = this.clientEra.hintsCaches ? this.cacheHintSource?.(method) : undefined;
      return hint && !isInputRequiredResult(result) ? withCacheHint(result, hint) : result;
    };
  }
}
