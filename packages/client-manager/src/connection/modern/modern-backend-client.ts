import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  type ClientCapabilities,
  type FetchLike,
  type Implementation,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  PROTOCOL_VERSION_META_KEY,
  type Transport as ModernTransport,
  ProtocolError,
  ProtocolErrorCode,
  type Request,
  type RequestMethod,
  type RequestOptions,
  type ResultTypeMap,
  SdkError,
  SdkErrorCode,
  type StandardSchemaV1,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import {
  type HeaderDeclaration,
  isLoggingLevel,
  isRecord,
  type Logger,
  listsTasksExtension,
  type McpTransport,
  paramHeaders,
  scanHeaderDeclarations,
  TASKS_EXTENSION,
} from '@search-mcp/shared';
import type { RequestOrigin, ReverseRequestRouter } from '../../reverse/reverse-request-types.js';
import type { BackendPeer, PeerRequestOptions } from '../backend-peer.js';
import { withCompleteResultType } from './complete-result-type.js';
import { ModernTaskBridge } from './modern-task-bridge.js';
import type { PeerConnectOptions } from '../era/prior-verdict.js';
import type { ModernErrorReader } from '../protocol-errors.js';
import { RawRequestChannel } from './raw-request-channel.js';
import { SideChannelTransport } from './side-channel-transport.js';

// Loaded only through `modern-client-loader.ts` (the 2.x SDK costs start-up time a 2025-only host never pays).

/** The revision a modern backend is reached in. */
export const modernProtocolVersion = '2026-07-28';

/**
 * The log level a 2026-07-28 backend is asked for while nobody set one: every level. Such a backend sends no log
 * message at all without a level in the request (spec MUST), where a 2025 backend without `logging/setLevel` logs at
 * its own default — for the SDKs' servers, everything. Asking for everything keeps a backend's logs flowing the same
 * whichever era it speaks (the router filters them per client session; the manager rate-limits them).
 */
export const defaultModernLogLevel: LoggingLevel = 'debug';

/**
 * The 2.x SDK client of a backend that speaks MCP 2026-07-28 (no `initialize`: `server/discover`, then version,
 * client info and capabilities in every request's `_meta`). The version is pinned: this client is used only for a
 * backend that refused the 2025 handshake (`-32022`) or is configured `protocol: "2026-07-28"`.
 *
 * It declares (in every request's envelope) the capabilities a 2025 backend is told in `initialize`, or, for a
 * request made for a client (`origin`), what that client declared: a 2026 backend asks for input only within them
 * (else its SDK refuses with `-32021`). It asks with `input_required` results,
 * which are never fulfilled here: `forwardRequest` hands them to the caller as they are, and the caller retries with
 * the answers (`docs/design/protocol-eras.md` §4: the front side decides who answers).
 */
export class ModernBackendClient extends Client implements BackendPeer {
  readonly protocolEra = 'modern';
  /** The level every request asks for (`io.modelcontextprotocol/logLevel`): the last `logging/setLevel`'s. */
  private logLevel: LoggingLevel;
  /** The revision the connection speaks: the pinned one, once `connect` succeeded. */
  private connectedVersion: string | undefined;
  /** The tasks extension's requests, when the backend lists it (set by `connect`). */
  private tasks: ModernTaskBridge | undefined;
  /** Streamable HTTP: tools with broken `x-mcp-header` marks are left out of `tools/list` (set by `connect`). */
  private overHttp = false;
  /**
   * Each listed tool's `x-mcp-header` declarations, for the `Mcp-Param-*` headers of its calls (SEP-2243): those of
   * the last complete listing, so a tool the backend dropped sends none.
   */
  private headerDeclarations = new Map<string, HeaderDeclaration[]>();
  /** The tools left out of the last complete listing, each with its reason (warned about once, not per listing). */
  private excludedTools = new Map<string, string>();
  /** The listing whose pages are coming (from a first page, with no cursor, to the last, with none next). */
  private listing: { declarations: Map<string, HeaderDeclaration[]>; excluded: Map<string, string> } | undefined;
  /** Told of a tool left out of `tools/list`, and why. */
  onToolExcluded?: (tool: string, reason: string) => void;

  constructor(
    private readonly ownInfo: Implementation,
    /** What this client declares in each request's `io.modelcontextprotocol/clientCapabilities`. */
    readonly declaredCapabilities: ClientCapabilities = {},
    /** The level the client side set before this connection (kept across reconnects by the session state). */
    logLevel: LoggingLevel = defaultModernLogLevel,
    /** What the client a request serves declared (`origin`), for that request's envelope; undefined: the above. */
    private readonly capabilitiesOf?: (origin: RequestOrigin) => ClientCapabilities | undefined,
  ) {
    super(ownInfo, {
      capabilities: declaredCapabilities,
      versionNegotiation: { mode: { pin: modernProtocolVersion } },
      // No input_required round trips are fulfilled here (see above); such a result reaches the caller as it is.
      inputRequired: { autoFulfill: false },
    });
    this.logLevel = logLevel;
  }

  get protocolVersion(): string | undefined {
    return this.connectedVersion;
  }

  /**
   * Our transports implement `McpTransport`, the shape the 2.x client drives. `prior` (the era probe's discover
   * result) is adopted without a second `server/discover`. A backend that lists the tasks extension gets its task
   * requests beside the client on the same transport (`RawRequestChannel`, a reader of our `SideChannelTransport`).
   */
  override async connect(transport: McpTransport | ModernTransport, options?: PeerConnectOptions): Promise<void> {
    this.overHttp = transport instanceof StreamableHTTPClientTransport;
    // A 2026 result without `resultType` reaches the client (and the task channel) as `complete`.
    const shared = new SideChannelTransport(transport, withCompleteResultType);
    await super.connect(shared, options);
    // The version is pinned: a connect that succeeded speaks it (no per-request read of the SDK's negotiation).
    this.connectedVersion = modernProtocolVersion;
    if (!listsTasksExtension(this.getServerCapabilities())) return;
    this.tasks = new ModernTaskBridge(new RawRequestChannel(shared, () => this.taskEnvelope()));
  }

  /**
   * `logging/setLevel` is answered here, never sent: in 2026-07-28 the level travels with every request (a 2026
   * backend's `logging/setLevel` sets a session level no 2026 request reads). The level is checked as a backend
   * would (`-32602` for one that is not an MCP logging level) and carried by every later request.
   *
   * The manager's task requests (`tools/call` with 2025's `task`, `tasks/get|result|cancel|update`) go through the
   * tasks extension when the backend lists it (`ModernTaskBridge`); else a `tools/call` drops `task` and runs plainly.
   */
  override request<M extends RequestMethod>(
    request: { method: M; params?: Record<string, unknown> },
    options?: RequestOptions,
  ): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(
    request: Request,
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(request: Request, schemaOrOptions?: unknown, options?: RequestOptions): Promise<unknown> {
    if (request.method === 'logging/setLevel') return this.setLevelHere(request.params?.level);
    // The capabilities of the client this request serves, in its envelope (`_meta` wins over the client's own).
    const origin = (options as PeerRequestOptions | undefined)?.origin;
    const declared = origin !== undefined ? this.capabilitiesOf?.(origin) : undefined;
    // A call's `Mcp-Param-*` headers go with it on every path below, task-augmented or not: a backend that enforces
    // SEP-2243 refuses a call of a marked tool without them.
    const sendOptions = request.method === 'tools/call' ? this.withParamHeaders(request.params, options) : options;
    // A task asked of a backend without the extension: the call runs as a plain 2026 call (`task` is no 2026 param).
    if (request.method === 'tools/call' && !this.tasks && request.params?.task !== undefined) {
      const { task: _task, ...params } = request.params;
      const plain = this.enveloped({ ...request, params }, declared);
      return super.request(plain, schemaOrOptions as StandardSchemaV1, sendOptions);
    }
    // Through the task channel a request declares the tasks extension too (see `taskEnvelope`).
    const bridged = this.tasks?.handle(declaring(request, declared && withTasksExtension(declared)), sendOptions);
    if (bridged) return bridged;
    const sent = this.enveloped(request, declared);
    if (request.method === 'tools/list') {
      const firstPage = request.params?.cursor === undefined;
      return super
        .request(sent, schemaOrOptions as StandardSchemaV1, options)
        .then((page) => this.screenTools(page, firstPage));
    }
    return super.request(sent, schemaOrOptions as StandardSchemaV1, sendOptions);
  }

  /**
   * Remembers each listed tool's `x-mcp-header` declarations; over Streamable HTTP a tool whose declarations break
   * the rules is left out (SEP-2243: a client must not call it), each with its reason. The declarations are those of
   * the last complete listing (a first page starts one, a page without a next cursor ends it): a tool the backend
   * dropped is forgotten, one whose marks broke loses its old declarations at once. A tool left out is reported once
   * per reason while it stays out, not on every re-listing (`tools/list_changed` may come often).
   */
  private screenTools(page: unknown, firstPage: boolean): unknown {
    if (!isRecord(page) || !Array.isArray(page.tools)) return page;
    if (firstPage || !this.listing) this.listing = { declarations: new Map(), excluded: new Map() };
    const listing = this.listing;
    const kept = page.tools.filter((tool: unknown) => {
      if (!isRecord(tool) || typeof tool.name !== 'string') return true;
      const scan = scanHeaderDeclarations(tool.inputSchema);
      if (scan.valid) {
        // Calls read the current map until the listing ends: this tool's declarations count from now.
        if (scan.declarations.length > 0) {
          listing.declarations.set(tool.name, scan.declarations);
          this.headerDeclarations.set(tool.name, scan.declarations);
        } else this.headerDeclarations.delete(tool.name);
        return true;
      }
      // Its old declarations no longer hold (a tool kept over stdio sends no headers there anyway).
      this.headerDeclarations.delete(tool.name);
      if (!this.overHttp) return true;
      if (this.excludedTools.get(tool.name) !== scan.reason && listing.excluded.get(tool.name) !== scan.reason) {
        this.onToolExcluded?.(tool.name, scan.reason);
      }
      listing.excluded.set(tool.name, scan.reason);
      return false;
    });
    if (typeof page.nextCursor !== 'string' || page.nextCursor === '') {
      this.headerDeclarations = listing.declarations;
      this.excludedTools = listing.excluded;
      this.listing = undefined;
    }
    return kept.length === page.tools.length ? page : { ...page, tools: kept };
  }

  /** A call's `Mcp-Param-*` headers, from its tool's declarations and its arguments. */
  private withParamHeaders(
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
  ): RequestOptions | undefined {
    const declarations = typeof params?.name === 'string' ? this.headerDeclarations.get(params.name) : undefined;
    if (!declarations) return options;
    const headers = paramHeaders(declarations, params?.arguments);
    return Object.keys(headers).length === 0 ? options : { ...options, headers: { ...options?.headers, ...headers } };
  }

  /**
   * The envelope of a request that may take a task: the one the 2.x client sends (version, client info, our
   * capabilities), the log level, and the tasks extension in the client capabilities. Only such requests declare it
   * (a backend must not answer a task to a request whose envelope lacks it), so every other call keeps getting its
   * result in the call. Built from public pieces: the SDK's own envelope builder is protected.
   */
  private taskEnvelope(): Readonly<Record<string, unknown>> {
    return {
      [PROTOCOL_VERSION_META_KEY]: modernProtocolVersion,
      [CLIENT_INFO_META_KEY]: this.ownInfo,
      [CLIENT_CAPABILITIES_META_KEY]: withTasksExtension(this.declaredCapabilities),
      [LOG_LEVEL_META_KEY]: this.logLevel,
    };
  }

  /**
   * The request with the log level in its `_meta` (without it a 2026 backend never logs) and, when given, the
   * capabilities of the client it serves. The 2.x client adds the rest of the envelope (version, client info, its
   * capabilities) and lets keys already in `_meta` win, so these go in as request `_meta`: the client has no public
   * setting for the envelope's log level (`docs/upstream/client-envelope-log-level.md`). A level the caller put in
   * `_meta` itself stays.
   */
  private enveloped(request: Request, capabilities: ClientCapabilities | undefined): Request {
    const declared = capabilities === undefined ? {} : { [CLIENT_CAPABILITIES_META_KEY]: capabilities };
    return withMetaKeys(request, { [LOG_LEVEL_META_KEY]: this.logLevel }, declared);
  }

  private async setLevelHere(level: unknown): Promise<Record<string, never>> {
    if (!isLoggingLevel(level)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid log level ${JSON.stringify(level) ?? 'undefined'}`,
      );
    }
    this.logLevel = level;
    return {};
  }

  /** `ping` is gone in 2026-07-28: `server/discover` is the round trip that proves the backend answers. */
  checkHealth(options: { timeout: number }): Promise<unknown> {
    return this.discover(options);
  }
}

/** Capabilities plus the tasks extension. */
function withTasksExtension(capabilities: ClientCapabilities): ClientCapabilities {
  const extensions = { ...(capabilities as { extensions?: object }).extensions, [TASKS_EXTENSION]: {} };
  return { ...capabilities, extensions } as ClientCapabilities;
}

/** The request with `capabilities` as its envelope's client capabilities; unchanged without them. */
function declaring(request: Request, capabilities: ClientCapabilities | undefined): Request {
  if (capabilities === undefined) return request;
  return withMetaKeys(request, {}, { [CLIENT_CAPABILITIES_META_KEY]: capabilities });
}

/** The request with more `_meta` keys: `defaults` give way to keys it has, `overrides` replace them. */
function withMetaKeys(
  request: Request,
  defaults: Record<string, unknown>,
  overrides: Record<string, unknown>,
): Request {
  const params = request.params ?? {};
  const meta = isRecord(params._meta) ? params._meta : {};
  return { ...request, params: { ...params, _meta: { ...defaults, ...meta, ...overrides } } };
}

export interface ModernBackendClientSettings {
  clientInfo: Implementation;
  logger: Logger;
  /** Which capabilities can be served, asked for `serverId` (none without a router, as for a 2025 backend). */
  router?: ReverseRequestRouter | undefined;
  serverId?: string;
  /** The log level the client side set (`logging/setLevel`), if any; else `defaultModernLogLevel`. */
  logLevel?: LoggingLevel | undefined;
  /** The connection closed (crash, remote close). */
  onClose: () => void;
}

/** A 2.x client for one connection attempt to a 2026-07-28 backend, declaring what the router can serve. */
export function createModernBackendClient(settings: ModernBackendClientSettings): ModernBackendClient {
  // The router types them with the 1.x SDK's schema: the same JSON object.
  const { router, serverId } = settings;
  const capabilities = (
    router && serverId !== undefined ? router.clientCapabilities(serverId) : {}
  ) as ClientCapabilities;
  // 2026-07-28 carries capabilities in every request: each request made for a client declares what that client can
  // answer, as the router says (a 2025 backend can be told only once, in `initialize`).
  const capabilitiesOf =
    router && serverId !== undefined
      ? (origin: RequestOrigin) => router.clientCapabilities(serverId, origin) as ClientCapabilities
      : undefined;
  const client = new ModernBackendClient(settings.clientInfo, capabilities, settings.logLevel, capabilitiesOf);
  client.onerror = (error) => settings.logger.debug('transport error', { error: error.message });
  client.onToolExcluded = (tool, reason) =>
    settings.logger.warn('left out a tool whose x-mcp-header marks break the rules (SEP-2243)', { tool, reason });
  client.onclose = () => settings.onClose();
  return client;
}

/**
 * The 2.x Streamable HTTP transport for a 2026-07-28 backend (it sends the revision's `Mcp-Method`/`Mcp-Name`
 * headers), typed as the transport shape our clients take.
 */
export function createModernHttpTransport(
  url: URL,
  init: { headers: Record<string, string>; fetch?: FetchLike },
): McpTransport {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: init.headers },
    ...(init.fetch ? { fetch: init.fetch } : {}),
  });
  return transport;
}

/** How `protocol-errors.ts` reads the 2.x SDK's errors. */
export const modernErrorReader: ModernErrorReader = {
  wireError(error) {
    if (!ProtocolError.isInstance(error)) return undefined;
    const { code, message, data } = error as ProtocolError;
    return { code, message, ...(data !== undefined ? { data } : {}) };
  },
  sdkCode(error) {
    if (!SdkError.isInstance(error)) return undefined;
    const { code } = error as SdkError;
    if (code === SdkErrorCode.RequestTimeout) return 'timeout';
    if (code === SdkErrorCode.ConnectionClosed) return 'closed';
    return 'other';
  },
  badResult(error) {
    if (!SdkError.isInstance(error)) return undefined;
    const { code, message } = error as SdkError;
    return code === SdkErrorCode.InvalidResult || code === SdkErrorCode.UnsupportedResultType ? message : undefined;
  },
};
