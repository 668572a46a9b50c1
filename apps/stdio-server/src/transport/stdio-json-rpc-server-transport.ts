import { isRecord, JsonRpcErrorCode, LineSplitter, type JsonRpcMessage, type McpTransport } from '@search-mcp/shared';
import { IncomingIdMap } from './incoming-id-map.js';
import { type IncomingMessage, readIncomingLine } from './incoming-message.js';

/** Longest line accepted from the client, in characters; a longer one is answered with a parse error and skipped. */
const defaultMaxLineLength = 64 * 1024 * 1024;

export interface StdioJsonRpcServerTransportOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  maxLineLength?: number;
  /** Hears of input the transport answered or dropped (for the log); the protocol goes on either way. */
  onDiagnostic?: (message: string) => void;
}

/**
 * The server end of MCP over stdio: one JSON-RPC message per line (`LineSplitter`, linear in the input).
 *
 * Unlike the SDK's `StdioServerTransport`, every request gets exactly one answer, as JSON-RPC 2.0 requires, and the
 * connection goes on: a line that is not JSON gets `-32700`; a message that is no valid request gets `-32600` (with
 * its id when it has a readable one, else `null`); a request whose `_meta` is not valid gets `-32602`. The SDK would
 * drop all of these without an answer. Ids are echoed exactly as sent (`1e300`, `1.5`, escaped strings: see
 * `IncomingIdMap`). Notifications are never answered. A malformed response to one of our own requests fails that
 * request at once instead of leaving it to time out.
 *
 * When the output closes (the client closed our stdout: EPIPE), the transport closes.
 */
export class StdioJsonRpcServerTransport implements McpTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;

  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;
  private readonly splitter: LineSplitter;
  private readonly ids = new IncomingIdMap();
  /** Ids of our requests to the client (sampling, elicitation, roots, ping) still waiting for an answer. */
  private readonly outgoingRequests = new Set<string | number>();
  /** Writes waiting for `drain`; they fail when the transport closes (a client that stopped reading). */
  private readonly waitingWrites = new Set<(error: Error) => void>();
  private started = false;
  private closed = false;

  constructor(private readonly options: StdioJsonRpcServerTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    const maxLineLength = options.maxLineLength ?? defaultMaxLineLength;
    this.splitter = new LineSplitter({
      maxLineLength,
      onLine: (line) => this.receive(readIncomingLine(line)),
      onOverflow: (_head, length) =>
        this.answerError(
          'null',
          JsonRpcErrorCode.ParseError,
          `Parse error: message longer than ${maxLineLength} characters (${length} so far)`,
        ),
    });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioJsonRpcServerTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.once('end', this.onEnd);
    this.input.once('close', this.onEnd);
    this.output.on('error', this.onOutputError);
  }

  send(message: JsonRpcMessage): Promise<void> {
    return this.write(`${this.serialize(message)}\n`);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    // Let the process exit: a paused stdin does not hold the event loop.
    if ('pause' in this.input && typeof this.input.pause === 'function') this.input.pause();
    this.finish();
  }

  private readonly onData = (chunk: Buffer | string) => this.splitter.push(chunk);

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onOutputError = (error: Error) => {
    this.onerror?.(error);
    // Nothing can reach the client any more (EPIPE: it closed our stdout).
    void this.close();
  };

  private readonly onEnd = () => this.finish();

  private receive(incoming: IncomingMessage): void {
    switch (incoming.kind) {
      case 'request': {
        const id = this.ids.requestId(incoming.id);
        const params = incoming.params ? this.withSdkProgressToken(incoming.params, id) : undefined;
        this.deliver({ jsonrpc: '2.0', id, method: incoming.method, ...(params ? { params } : {}) });
        return;
      }
      case 'notification': {
        let params = incoming.params;
        if (incoming.method === 'notifications/cancelled' && params) {
          const internal = this.ids.internalIdOf(params.requestId);
          if (internal !== undefined) {
            params = { ...params, requestId: internal };
            this.ids.settle(internal);
          }
        }
        this.deliver({ jsonrpc: '2.0', method: incoming.method, ...(params ? { params } : {}) } as JsonRpcMessage);
        return;
      }
      case 'response':
        // A response to none of our requests is the SDK's to report; ours are settled here.
        this.outgoingRequests.delete(incoming.id);
        this.deliver({
          jsonrpc: '2.0',
          id: incoming.id,
          ...(incoming.error ? { error: incoming.error } : { result: incoming.result ?? {} }),
        } as JsonRpcMessage);
        return;
      case 'malformed-response':
        this.diagnostic(`malformed response from the client: ${incoming.reason}`);
        if (incoming.id !== undefined && this.outgoingRequests.delete(incoming.id)) {
          this.deliver({
            jsonrpc: '2.0',
            id: incoming.id,
            error: {
              code: JsonRpcErrorCode.InternalError,
              message: `The client sent a malformed response: ${incoming.reason}`,
            },
          });
        }
        return;
      case 'invalid':
        this.diagnostic(incoming.message);
        this.answerError(incoming.rawId, incoming.code, incoming.message);
        return;
      case 'ignored':
        if (incoming.reason !== 'blank line') this.diagnostic(`ignored ${incoming.reason}`);
        return;
    }
  }

  /** The params with a progress token the SDK accepts (see `IncomingIdMap`). */
  private withSdkProgressToken(params: Record<string, unknown>, requestId: string | number): Record<string, unknown> {
    const meta = params._meta;
    if (!isRecord(meta) || meta.progressToken === undefined) return params;
    const token = this.ids.progressToken(meta.progressToken, requestId);
    return token === meta.progressToken ? params : { ...params, _meta: { ...meta, progressToken: token } };
  }

  private deliver(message: JsonRpcMessage): void {
    this.onmessage?.(message);
  }

  private serialize(message: JsonRpcMessage): string {
    if ('method' in message) {
      if ('id' in message) this.outgoingRequests.add(message.id);
      if (message.method === 'notifications/progress' && message.params) {
        const token = this.ids.clientToken(message.params.progressToken);
        if (token !== message.params.progressToken)
          return JSON.stringify({ ...message, params: { ...message.params, progressToken: token } });
      }
      return JSON.stringify(message);
    }
    if (message.id === undefined) return JSON.stringify(message);
    const raw = this.ids.settle(message.id);
    if (raw === undefined) return JSON.stringify(message);
    // The id exactly as the client wrote it.
    const { id: _internal, jsonrpc: _version, ...rest } = message as Record<string, unknown>;
    return `{"jsonrpc":"2.0","id":${raw},${JSON.stringify(rest).slice(1)}`;
  }

  private answerError(rawId: string, code: number, message: string): void {
    void this.write(`{"jsonrpc":"2.0","id":${rawId},"error":${JSON.stringify({ code, message })}}\n`).catch(() => {});
  }

  private diagnostic(message: string): void {
    this.options.onDiagnostic?.(message);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error('Not connected'));
        return;
      }
      if (this.output.write(text)) {
        resolve();
        return;
      }
      const fail = (error: Error) => {
        this.output.off('drain', drained);
        reject(error);
      };
      const drained = () => {
        this.waitingWrites.delete(fail);
        resolve();
      };
      this.waitingWrites.add(fail);
      this.output.once('drain', drained);
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    // The output 'error' listener stays: a late EPIPE must not become an uncaught exception.
    for (const fail of this.waitingWrites) fail(new Error('Not connected'));
    this.waitingWrites.clear();
    this.onclose?.();
  }
}
