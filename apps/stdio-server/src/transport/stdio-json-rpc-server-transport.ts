import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcErrorCode, isJsonRpcMessage } from '@search-mcp/shared';

/** Longest line accepted from the client; a longer one is answered with a parse error and dropped. */
const maxLineLength = 64 * 1024 * 1024;

/**
 * The server end of MCP over stdio: one JSON-RPC message per line.
 *
 * Unlike the SDK's `StdioServerTransport`, bad input gets an answer, as JSON-RPC 2.0 requires: a line that is not JSON
 * gets `-32700 Parse error`, JSON that is not a JSON-RPC message gets `-32600 Invalid Request` (with its id when it
 * has one), and the connection goes on. Messages are checked by shape instead of a zod parse per message.
 */
export class StdioJsonRpcServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending = '';
  // Keeps the bytes of a character split between two chunks until the rest arrives.
  private readonly decoder = new StringDecoder('utf8');
  private started = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioJsonRpcServerTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.once('end', this.onEnd);
    this.input.once('close', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
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

  private readonly onData = (chunk: Buffer | string) => {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let index: number;
    while ((index = this.pending.indexOf('\n')) !== -1) {
      const line = this.pending.slice(0, index).replace(/\r$/, '');
      this.pending = this.pending.slice(index + 1);
      this.handleLine(line);
    }
    if (this.pending.length > maxLineLength) {
      this.pending = '';
      this.reject(JsonRpcErrorCode.ParseError, 'Parse error: line too long', null);
    }
  };

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onEnd = () => this.finish();

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reject(
        JsonRpcErrorCode.ParseError,
        `Parse error: ${error instanceof Error ? error.message : 'not JSON'}`,
        null,
      );
      return;
    }
    if (!isJsonRpcMessage(value)) {
      const id = (value as { id?: unknown } | null)?.id;
      const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
      this.reject(
        JsonRpcErrorCode.InvalidRequest,
        'Invalid Request: expected a JSON-RPC 2.0 message (jsonrpc "2.0" with a string method, or a result/error with an id)',
        usableId,
      );
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  private reject(code: number, message: string, id: string | number | null): void {
    this.onerror?.(new Error(message));
    void this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`).catch(() => {});
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error('Not connected'));
        return;
      }
      if (this.output.write(text)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
