import type { IncomingId } from './incoming-message.js';

/**
 * Ids and progress tokens the SDK cannot carry, swapped for ones it can, and back.
 *
 * JSON-RPC allows any number or string as a request id, and MCP any number or string as a progress token; the SDK
 * accepts only strings and safe integers and silently drops any other request. Such an id (and one written
 * differently from how `JSON.stringify` would write it, like `1.0` or `1e3`, or a string with escapes) is replaced by
 * an internal string id on the way in, and the response goes out with the id exactly as the client wrote it.
 * Everything else passes unchanged.
 */
export class IncomingIdMap {
  private readonly rawById = new Map<string, string>();
  /** Client id value (`typeof:value`) → internal id, for `notifications/cancelled`. */
  private readonly internalByValue = new Map<string, string>();
  private readonly tokens = new Map<string, number>();
  /** Request id (as the SDK sees it) → its internal progress token. */
  private readonly tokenOfRequest = new Map<string | number, string>();
  private counter = 0;

  constructor(private readonly limit = 10_000) {}

  /** The id to give the SDK for a request. */
  requestId(id: IncomingId): string | number {
    if (!needsMapping(id)) return id.value;
    this.counter += 1;
    const internal = `${internalPrefix}${this.counter}`;
    this.rawById.set(internal, id.raw);
    this.internalByValue.set(valueKey(id.value), internal);
    this.trim(this.rawById);
    this.trim(this.internalByValue);
    return internal;
  }

  /** The progress token to give the SDK for a request's token, remembered for the notifications that carry it. */
  progressToken(token: unknown, requestId: string | number): unknown {
    if (typeof token !== 'number' || Number.isSafeInteger(token)) return token;
    this.counter += 1;
    const internal = `${internalPrefix}progress-${this.counter}`;
    this.tokens.set(internal, token);
    this.tokenOfRequest.set(requestId, internal);
    this.trim(this.tokens);
    this.trim(this.tokenOfRequest);
    return internal;
  }

  /** The internal id of a request the client named by its own id (in `notifications/cancelled`). */
  internalIdOf(value: unknown): string | undefined {
    return typeof value === 'string' || typeof value === 'number'
      ? this.internalByValue.get(valueKey(value))
      : undefined;
  }

  /** The client's token for an internal one, in an outgoing progress notification. */
  clientToken(token: unknown): unknown {
    return typeof token === 'string' ? (this.tokens.get(token) ?? token) : token;
  }

  /**
   * The request is answered (or cancelled): forgets what was kept for it and returns the id's source text when it was
   * mapped.
   */
  settle(id: string | number): string | undefined {
    const token = this.tokenOfRequest.get(id);
    if (token !== undefined) {
      this.tokens.delete(token);
      this.tokenOfRequest.delete(id);
    }
    if (typeof id !== 'string' || !id.startsWith(internalPrefix)) return undefined;
    const raw = this.rawById.get(id);
    this.rawById.delete(id);
    if (raw !== undefined) this.internalByValue.delete(valueKey(JSON.parse(raw) as string | number));
    return raw;
  }

  /** A client that never lets its requests finish must not grow these maps without bound: the oldest go first. */
  private trim(map: Map<unknown, unknown>): void {
    while (map.size > this.limit) {
      const oldest = map.keys().next().value;
      map.delete(oldest);
    }
  }
}

/** No client id starts like this unless it means to collide; one that does is mapped like any odd id. */
const internalPrefix = '\u0000search-mcp:';

function needsMapping(id: IncomingId): boolean {
  if (typeof id.value === 'number') return !Number.isSafeInteger(id.value) || id.raw !== String(id.value);
  return id.value.startsWith(internalPrefix) || id.raw !== JSON.stringify(id.value);
}

function valueKey(value: string | number): string {
  return `${typeof value}:${String(value)}`;
}
