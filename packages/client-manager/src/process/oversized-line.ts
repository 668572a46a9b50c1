import type { McpRequestId } from '@search-mcp/shared';

/** Bytes kept from the end of an over-long line: enough for `,"jsonrpc":"2.0","id":"<uuid>"}`. */
const tailBytes = 256;

/**
 * An stdout line longer than the size limit, being skipped up to its newline. Its first characters (from the line
 * splitter) and last bytes (kept here) are all that is left of it: enough to find which request it answered, so
 * that request fails at once with "too large" instead of waiting for its timeout.
 */
export class OversizedLine {
  private tail: Buffer;
  private skippedBytes = 0;

  constructor(
    readonly head: string,
    private readonly lengthAtOverflow: number,
    /** The chunk during which the limit was crossed: the line's end so far. */
    chunk: Buffer,
  ) {
    this.tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - tailBytes)));
  }

  /** Takes the next stdout chunk; true when it holds the line's newline (the line is over). */
  feed(chunk: Buffer): boolean {
    const newline = chunk.indexOf(0x0a);
    const end = newline === -1 ? chunk.length : newline;
    const piece = chunk.subarray(Math.max(0, end - tailBytes), end);
    this.tail = Buffer.concat([this.tail, piece]).subarray(-tailBytes);
    this.skippedBytes += end;
    return newline !== -1;
  }

  /** Characters seen before the limit plus bytes skipped after it (the same for ASCII JSON). */
  get length(): number {
    return this.lengthAtOverflow + this.skippedBytes;
  }

  /** The id of the reply, from a leading `{"jsonrpc":"2.0","id":…` or a trailing `"id":…}` (the SDK's order). */
  responseId(): McpRequestId | undefined {
    const leading = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*,/.exec(
      this.head,
    );
    const tail = this.tail.toString('utf8').replace(/\r?$/, '');
    const trailing = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/.exec(tail);
    const text = leading?.[1] ?? trailing?.[1];
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as McpRequestId;
    } catch {
      return undefined;
    }
  }
}
