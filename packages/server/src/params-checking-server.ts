import {
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type CancelTaskRequest,
  type GetTaskPayloadRequest,
  type GetTaskRequest,
  type JSONRPCRequest,
  isInputRequiredResult,
  type ListTasksRequest,
  type RequestMethod,
  type RequestTypeMap,
  type Result,
  Server,
  type ServerContext,
  type SpecTypeName,
  specTypeSchemas,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/server';
import { formatIssues, isRecord } from '@search-mcp/shared';
import { z } from 'zod';
import { type CacheHint, withCacheHint } from './cache-hints.js';
import { dispatchRequestsDirectly } from './direct-request-dispatch.js';
import { requestExtraOf } from './request-extra.js';
import type { RequestExtra } from './search-mcp-server-options.js';
import { JsonRpcWireError } from './wire-errors.js';

/** A handler of ours: the request as validated, and the era-blind view of its context. */
export type ParamsCheckedHandler<M extends HandledMethod> = (
  request: HandledRequests[M],
  extra: RequestExtra,
) => unknown;

/**
 * The tasks extension's `tasks/update` (2026-07-28, SEP-2663): not in the SDK, which has no schemas of the extension.
 * Its `inputResponses` are not here: the SDK lifts them out of a 2026 request's params into the request's context
 * (`RequestExtra.inputResponses`), as for a multi-round-trip retry.
 */
const UpdateTaskRequestSchema = z.object({
  method: z.literal('tasks/update'),
  params: z.object({ taskId: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }),
});
export type UpdateTaskRequest = z.infer<typeof UpdateTaskRequestSchema>;

/**
 * The task methods: the 2.x SDK does not count 2025's as spec methods any more (2026-07-28 moves tasks to an
 * extension), and the extension's `tasks/update` never was one, so they are registered with a params schema of their
 * own.
 */
interface TaskRequests {
  'tasks/get': GetTaskRequest;
  'tasks/result': GetTaskPayloadRequest;
  'tasks/cancel': CancelTaskRequest;
  'tasks/list': ListTasksRequest;
  'tasks/update': UpdateTaskRequest;
}
type HandledRequests = RequestTypeMap & TaskRequests;
type HandledMethod = RequestMethod | keyof TaskRequests;
const taskMethods = new Set<string>(['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list', 'tasks/update']);
/** Params are checked before (`checkParams`, against the spec's task schemas): any object passes here. */
const anyParams: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'search-mcp', validate: (value) => ({ value }) },
};

/** Changes the SDK's own `initialize` (2025) or `server/discover` (2026-07-28) result before it goes out. */
export type HandshakeResultTransform = (result: Result, extra: RequestExtra) => Promise<Result>;

/** The spec's request schema of each method the aggregate answers. */
const requestTypes: Record<string, SpecTypeName> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'server/discover': 'DiscoverRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'tasks/cancel': 'CancelTaskRequest',
  'tasks/list': 'ListTasksRequest',
};
/** Request schemas of methods the spec's schemas do not cover. */
const extensionRequestSchemas: Record<string, StandardSchemaV1> = { 'tasks/update': UpdateTaskRequestSchema };

// Kept outside the instance: the SDK registers `initialize` inside the `Server` constructor, before subclass fields
// exist, and the wrappers read these when a request arrives.
const handshakeTransforms = new WeakMap<object, HandshakeResultTransform>();
const cacheHintSources = new WeakMap<object, (method: string) => CacheHint | undefined>();
const clientListeners = new WeakMap<object, (client: ConnectedClient) => void>();

/** Who connected, in which revision: told once per instance. */
export interface ConnectedClient {
  era: 'legacy' | 'modern';
  protocolVersion: string | undefined;
  name: string | undefined;
  version: string | undefined;
}
const ownSchemas = new WeakMap<object, Map<string, StandardSchemaV1>>();
/** The era of an instance once its protocol version is known (it never changes afterwards). */
const knownEras = new WeakMap<object, boolean>();

/**
 * The 2.x SDK's low-level `Server` (both protocol eras, the era fixed per instance by the serving entry), except:
 *
 * - a request whose params do not fit its method is answered `-32602 Invalid params` with one readable line. The
 *   SDK answers a zod dump, and for most methods as `-32603` (measured on 2.4.0; typescript-sdk#2284);
 * - `tools/call` results pass unchanged: the SDK's re-validation of results would judge backends' content blocks. Its
 *   multi-round-trip seam stays: an `input_required` answer is checked against a 2026-07-28 request's capabilities,
 *   or turned into real push requests to a 2025 client by the SDK's legacy shim (which re-enters the handler);
 * - handlers get an era-blind `RequestExtra` (signal, id, session, notify, send, client capabilities, a retry's
 *   `inputResponses` and `requestState`), so one handler serves both eras;
 * - `transformHandshakeResult` lets the `initialize` / `server/discover` answer name the backends' instructions;
 * - an inbound request goes to the request dispatch without first failing the SDK's two response schemas (a third
 *   of the SDK's work per forwarded call).
 */
export class ParamsCheckingServer extends Server {
  /**
   * Registers `handler` for `method`. `requestSchema` (a schema of the whole request) replaces the spec's where the
   * aggregate accepts more, or words its errors itself.
   */
  handle<M extends HandledMethod>(method: M, handler: ParamsCheckedHandler<M>, requestSchema?: StandardSchemaV1): void {
    if (requestSchema) {
      const schemas = ownSchemas.get(this) ?? new Map<string, StandardSchemaV1>();
      schemas.set(method, requestSchema);
      ownSchemas.set(this, schemas);
    }
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

  /** One transform for `initialize` and `server/discover`; a later call replaces it. */
  transformHandshakeResult(transform: HandshakeResultTransform): void {
    handshakeTransforms.set(this, transform);
  }

  /**
   * Where 2026-07-28 answers get their `ttlMs`/`cacheScope`: asked per answer (the hint follows the servers' states),
   * `undefined` = none. Fields a result already has win. 2025-era answers never get them.
   */
  hintCaches(source: (method: string) => CacheHint | undefined): void {
    cacheHintSources.set(this, source);
  }

  /**
   * `listener` hears once who connected: a 2025 client when `initialized` arrives, a 2026-07-28 client with its
   * first request (its envelope names it).
   */
  onClientConnected(listener: (client: ConnectedClient) => void): void {
    clientListeners.set(this, listener);
    this.oninitialized = () => {
      const info = this.getClientVersion();
      this.tellClient({
        era: 'legacy',
        protocolVersion: this.getNegotiatedProtocolVersion(),
        name: info?.name,
        version: info?.version,
      });
    };
  }

  private tellClient(client: ConnectedClient): void {
    const listener = clientListeners.get(this);
    clientListeners.delete(this);
    listener?.(client);
  }

  /** Whether this instance serves the 2026-07-28 era (fixed by the serving entry before the first request). */
  servesModernEra(): boolean {
    // Asked several times per request: kept once known (a 2025 instance knows after `initialize`, a 2026 one at once).
    const known = knownEras.get(this);
    if (known !== undefined) return known;
    const version = this.getNegotiatedProtocolVersion();
    if (version === undefined) return false;
    const modern = version >= '2026';
    knownEras.set(this, modern);
    return modern;
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
    const seam = this as unknown as MultiRoundTripSeam;
    if (context.mcpReq.requestState() !== undefined)
      return seam._invokeInputRequiredCapableHandler(method, handler, request, context);
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
          ? seam._invokeInputRequiredCapableHandler(method, replaying(Promise.resolve(result)), request, context)
          : result,
      (error: unknown) =>
        seam._invokeInputRequiredCapableHandler(method, replaying(Promise.reject(error)), request, context),
    );
  }

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
        : super._wrapHandler(method, handler);
    const isHandshake = method === 'initialize' || method === 'server/discover';
    return async (request, context) => {
      if (clientListeners.has(this) && this.servesModernEra()) {
        const envelope: Record<string, unknown> = context.mcpReq.envelope ?? {};
        const info = isRecord(envelope[CLIENT_INFO_META_KEY]) ? envelope[CLIENT_INFO_META_KEY] : {};
        const version = envelope[PROTOCOL_VERSION_META_KEY];
        this.tellClient({
          era: 'modern',
          protocolVersion: typeof version === 'string' ? version : undefined,
          name: typeof info.name === 'string' ? info.name : undefined,
          version: typeof info.version === 'string' ? info.version : undefined,
        });
      }
      checkParams(method, request, ownSchemas.get(this)?.get(method));
      let result = withoutBackendServerInfo(await inner(request, context));
      const transform = isHandshake ? handshakeTransforms.get(this) : undefined;
      if (transform) result = await transform(result, requestExtraOf(context, this));
      const hint = this.servesModernEra() ? cacheHintSources.get(this)?.(method) : undefined;
      return hint && !isInputRequiredResult(result) ? withCacheHint(result, hint) : result;
    };
  }
}

/**
 * A forwarded result without the backend's own `_meta["io.modelcontextprotocol/serverInfo"]` (a 2026-07-28 backend
 * stamps it on every result): the client's server is Search MCP, and the SDK stamps ours on 2026 answers.
 */
function withoutBackendServerInfo(result: Result): Result {
  const meta = result._meta;
  if (!isRecord(meta) || !(SERVER_INFO_META_KEY in meta)) return result;
  const { [SERVER_INFO_META_KEY]: _backend, ...rest } = meta;
  if (Object.keys(rest).length > 0) return { ...result, _meta: rest };
  const { _meta: _dropped, ...withoutMeta } = result;
  return withoutMeta as Result;
}

/**
 * The 2.x `Server`'s seam for `tools/call`, `prompts/get` and `resources/read` (private in its types; the public
 * wrapper around it also re-validates results, which we must not).
 */
interface MultiRoundTripSeam {
  _invokeInputRequiredCapableHandler(
    method: string,
    handler: (request: JSONRPCRequest, context: ServerContext) => Promise<Result>,
    request: JSONRPCRequest,
    context: ServerContext,
  ): Promise<Result>;
}

function checkParams(method: string, request: JSONRPCRequest, own: StandardSchemaV1 | undefined): void {
  const type = requestTypes[method];
  const schema =
    own ?? extensionRequestSchemas[method] ?? (type ? (specTypeSchemas[type] as StandardSchemaV1) : undefined);
  if (!schema) return;
  const outcome = schema['~standard'].validate(request);
  if (outcome instanceof Promise) return;
  if (outcome.issues) {
    throw new JsonRpcWireError(-32602, `Invalid ${method} params: ${describeIssues(outcome.issues)}`);
  }
}

/** `protocolVersion: expected string; clientInfo: expected object`: paths below `params`, one line. */
function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  if (issues.length === 0) return 'they do not match the method';
  return formatIssues(
    issues.map((issue) => {
      const path = (issue.path ?? []).map((segment) =>
        String(isRecord(segment) && 'key' in segment ? segment.key : segment),
      );
      return { path: (path[0] === 'params' ? path.slice(1) : path).join('.') || 'params', message: issue.message };
    }),
  );
}
