import { type JSONRPCMessage, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { isRecord } from '@search-mcp/shared';
import type { PeerRequestOptions } from '../backend-peer.js';
import type { SideChannelReader, SideChannelTransport } from './side-channel-transport.js';

/** Our ids and progress tokens on the shared transport: strings, so they never meet the SDK's numeric ones. */
const idPrefix = 'search-mcp-raw-';

interface PendingRequest {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
  onprogress: PeerRequestOptions['onprogress'];
}

/**
 * Requests sent beside a 2.x client on its own transport, outside the client's result codec. SDK 2.4.0's `Client`
 * rejects a result with `resultType: "task"` for every method, with or without a result schema (the era codec's
 * `decodeResult` answers `UNSUPPORTED_RESULT_TYPE` before any schema or the `_resolveNonCompleteResult` hook sees
 * it), so the tasks extension's `tools/call` and `tasks/*` travel here, as `@modelcontextprotocol/ext-tasks`'s
 * `rawDispatch` does.
 *
 * Attached to the `SideChannelTransport` the client connected over (our layer, not the client's own callbacks): this
 * channel takes the responses and progress notifications of its own requests (string ids and tokens) before the
 * client sees anything else. Results come back as the backend sent them (`resultType`
 * kept); a JSON-RPC error is the 2.x `ProtocolError`, a closed connection the SDK's `ConnectionClosed`, so failures
 * read exactly like the client's own. Cancellation: the request's stream is closed where the transport has one per
 * request (Streamable HTTP, 2026-07-28), else `notifications/cancelled` is sent.
 */
export class RawRequestChannel implements SideChannelReader {
  private nextId = 1;
  private readonly pending = new Map<string, PendingRequest>();

  constructor(
    private readonly transport: SideChannelTransport,
    /** The `_meta` envelope each message carries (version, client info, capabilities, log level). */
    private readonly envelope: () => Readonly<Record<string, unknown>>,
  ) {
    transport.attach(this);
  }

  /** Sends one request; resolves with its raw result. `options.timeout` is the caller's business (its signal). */
  request(
    method: string,
    params: Record<string, unknown>,
    options: PeerRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const { signal, onprogress, headers } = options;
    signal?.throwIfAborted();
    const id = `${idPrefix}${this.nextId++}`;
    const meta: Record<string, unknown> = { ...this.envelope(), ...(isRecord(params._meta) ? params._meta : {}) };
    if (onprogress) meta.progressToken = id;
    const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } } as JSONRPCMessage;
    const perRequestStream = this.transport.hasPerRequestStream === true;
    const stream = perRequestStream ? new AbortController() : undefined;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const aborted = () => {
        if (!this.pending.delete(id)) return;
        if (stream) stream.abort(signal?.reason);
        else void this.notify('notifications/cancelled', { requestId: id, reason: String(signal?.reason) });
        reject(signal?.reason);
      };
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', aborted);
          then(value);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject), onprogress });
      signal?.addEventListener('abort', aborted, { once: true });
      // The transport's public per-message options: the request's own stream, and its headers (a 2026 backend that
      // enforces SEP-2243 refuses a `tools/call` of a marked tool without its `Mcp-Param-*` headers).
      const sendOptions = { ...(stream ? { requestSignal: stream.signal } : {}), ...(headers ? { headers } : {}) };
      this.transport.send(message, sendOptions).catch((error: unknown) => {
        if (this.pending.delete(id)) settle(reject)(error);
      });
    });
  }

  private notify(method: string, params: Record<string, unknown>): Promise<void> {
    const message = { jsonrpc: '2.0', method, params: { ...params, _meta: { ...this.envelope() } } };
    return this.transport.send(message as JSONRPCMessage).catch(() => {});
  }

  /** Whether the message was ours (a response to, or progress of, one of our requests). */
  take(message: JSONRPCMessage): boolean {
    const raw = message as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    if (raw.method === 'notifications/progress' && isRecord(raw.params)) {
      const token = raw.params.progressToken;
      if (typeof token !== 'string' || !token.startsWith(idPrefix)) return false;
      const { progressToken: _token, _meta, ...progress } = raw.params;
      this.pending.get(token)?.onprogress?.(progress as { progress: number; total?: number; message?: string });
      return true;
    }
    if (typeof raw.id !== 'string' || !raw.id.startsWith(idPrefix) || raw.method !== undefined) return false;
    const request = this.pending.get(raw.id);
    this.pending.delete(raw.id);
    if (!request) return true;
    if (isRecord(raw.error)) {
      const { code, message: text, data } = raw.error;
      request.reject(
        ProtocolError.fromError(
          typeof code === 'number' ? code : -32603,
          typeof text === 'string' ? text : 'unknown error',
          data,
        ),
      );
    } else if (isRecord(raw.result)) request.resolve(raw.result);
    else request.reject(new SdkError(SdkErrorCode.InvalidResult, 'Invalid result: not an object'));
    return true;
  }

  /** The connection closed: every pending request fails as the client's own would. */
  closed(): void {
    const requests = [...this.pending.values()];
    this.pending.clear();
    for (const request of requests) request.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  }
}
