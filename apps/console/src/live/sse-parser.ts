/** One server-sent event: its `event:` name (default "message"), its joined `data:` lines, and its `id:`. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental parser of the `text/event-stream` format (the WHATWG HTML standard, "Server-sent events",
 * interpreting an event stream). The console reads `/v1/activity/stream` with `fetch`, because `EventSource` cannot
 * send the `Authorization` header the API needs, so it parses the stream itself: feed it text chunks as they arrive,
 * in any split, and it returns the events each chunk completes. Comments (`: ping`) are skipped.
 */
export class SseParser {
  private buffer = '';
  private eventName = '';
  private dataLines: string[] = [];
  private lastEventId: string | undefined;
  private sawData = false;

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const end = lineEnd(this.buffer);
      if (end === undefined) break;
      const line = this.buffer.slice(0, end.index);
      this.buffer = this.buffer.slice(end.index + end.length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') {
      this.dataLines.push(value);
      this.sawData = true;
    } else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    // `retry` and unknown fields do not matter to a reader that reconnects on its own schedule.
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const event = this.eventName || 'message';
    const data = this.dataLines.join('\n');
    const sawData = this.sawData;
    this.eventName = '';
    this.dataLines = [];
    this.sawData = false;
    // The standard drops an event without data lines.
    if (!sawData) return undefined;
    return this.lastEventId === undefined ? { event, data } : { event, data, id: this.lastEventId };
  }
}

/**
 * Where the first line of `text` ends (CRLF, LF or CR). A CR at the very end may be the first half of a CRLF split
 * across chunks, so it waits for the next chunk.
 */
function lineEnd(text: string): { index: number; length: number } | undefined {
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '\n') return { index, length: 1 };
    if (character === '\r') {
      if (index + 1 === text.length) return undefined;
      return { index, length: text[index + 1] === '\n' ? 2 : 1 };
    }
  }
  return undefined;
}
