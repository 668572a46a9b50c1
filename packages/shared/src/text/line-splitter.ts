/**
 * Newline framing of a byte stream (stdio MCP: one JSON-RPC message per line), in time linear in the input.
 *
 * Each chunk is decoded once (UTF-8 split across chunks is kept whole) and searched for `\n` only in its own text, so
 * a 50 MB line arriving in 64 kB chunks costs one pass, not one pass per chunk. The unfinished line is kept as a list
 * of pieces and joined once, when its newline arrives. A line longer than `maxLineLength` characters is dropped
 * and reported through `onOverflow` (with its length) instead of growing without bound.
 */
export interface LineSplitterOptions {
  /** Called with each complete line, without its `\n` (a trailing `\r` is removed too). */
  onLine: (line: string) => void;
  /** Longest line kept, in characters; default 64 Mi. */
  maxLineLength?: number;
  /** Called once per over-long line, with its first 200 characters and its length so far. */
  onOverflow?: (head: string, length: number) => void;
}

export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly maxLineLength: number;
  private pieces: string[] = [];
  private pendingLength = 0;
  /** Set while the rest of an over-long line is being skipped up to its newline. */
  private skipping = false;

  constructor(private readonly options: LineSplitterOptions) {
    this.maxLineLength = options.maxLineLength ?? 64 * 1024 * 1024;
  }

  /** Feeds one chunk of the stream. */
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', start)) {
      const piece = text.slice(start, index);
      start = index + 1;
      if (this.skipping) {
        this.skipping = false;
        this.reset();
        continue;
      }
      this.pieces.push(piece);
      const line = this.pieces.length === 1 ? piece : this.pieces.join('');
      this.reset();
      this.options.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (start < text.length && !this.skipping) {
      const rest = text.slice(start);
      this.pieces.push(rest);
      this.pendingLength += rest.length;
      if (this.pendingLength > this.maxLineLength) {
        const head = this.pieces.join('').slice(0, 200);
        this.options.onOverflow?.(head, this.pendingLength);
        this.reset();
        this.skipping = true;
      }
    }
  }

  /** Characters of the line not yet finished. */
  get pendingCharacters(): number {
    return this.pendingLength;
  }

  private reset(): void {
    this.pieces = [];
    this.pendingLength = 0;
  }
}
