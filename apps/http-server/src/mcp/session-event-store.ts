import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '@search-mcp/shared';

type StreamId = string;
type EventId = string;

export interface SessionEventStoreOptions {
  /** Streams kept at most (the oldest goes first). Default 32. */
  maxStreams?: number;
  /** Events kept per stream at most (the oldest goes first: a long call's early progress). Default 64. */
  maxEventsPerStream?: number;
}

/** How long a client waits before it reconnects to a stream that ended early (the SSE `retry` field). */
export const sseRetryIntervalMs = 1000;

interface StoredEvent {
  id: EventId;
  message: JSONRPCMessage;
}

/**
 * The events of one 2025 session's SSE streams, so a client whose POST stream broke off (a proxy's idle cut, a
 * dropped connection) can resume it with `GET` + `Last-Event-ID` and still get its response (Streamable HTTP
 * resumability, SEP-1699). Given to the SDK's transport, it also makes the transport open each POST stream with a
 * priming event (an id, empty data) and the `retry` field, for clients of 2025-11-25 and later.
 *
 * Bounded: a stream whose every response was delivered on its own HTTP response is forgotten then
 * (`delivered`), since nobody will resume it; only broken-off streams and the session's GET stream stay, within
 * `maxStreams` × `maxEventsPerStream`. An event id is `<stream id>.<n>`: the stream is found from it without a
 * table, and ids of another session are unknown here (each session has its own store).
 */
export class SessionEventStore implements EventStore {
  private readonly streams = new Map<StreamId, StoredEvent[]>();
  /** The stream each request's response went on (to forget the stream once it was delivered). */
  private readonly responseStreams = new Map<string | number, StreamId>();
  private readonly maxStreams: number;
  private readonly maxEventsPerStream: number;
  private sequence = 0;

  constructor(options: SessionEventStoreOptions = {}) {
    this.maxStreams = options.maxStreams ?? 32;
    this.maxEventsPerStream = options.maxEventsPerStream ?? 64;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.sequence += 1;
    const id = `${streamId}.${this.sequence}`;
    let events = this.streams.get(streamId);
    if (!events) {
      events = [];
      this.streams.set(streamId, events);
      if (this.streams.size > this.maxStreams) this.forgetStream(this.streams.keys().next().value as StreamId);
    }
    events.push({ id, message });
    if (events.length > this.maxEventsPerStream) events.shift();
    const responseId = responseIdOf(message);
    if (responseId !== undefined) this.responseStreams.set(responseId, streamId);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const streamId = streamIdOf(eventId);
    return streamId !== undefined && this.streams.has(streamId) ? streamId : undefined;
  }

  /**
   * Sends what the stream had after `lastEventId`. An id no longer kept (the stream's oldest events went past the
   * bound) replays every event still kept: a duplicate progress notification is better than a lost response.
   */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const streamId = streamIdOf(lastEventId);
    const events = streamId !== undefined ? this.streams.get(streamId) : undefined;
    if (streamId === undefined || !events) throw new Error(`Unknown event id: ${lastEventId}`);
    const after = events.findIndex((event) => event.id === lastEventId);
    for (const event of events.slice(after + 1)) {
      // The priming event (`{}`) only opened the stream: nothing to send again.
      if (isJsonRpcMessage(event.message)) await send(event.id, event.message);
    }
    return streamId;
  }

  /** The POST that carried these requests ended with all its responses written: nothing of it needs resuming. */
  delivered(requestIds: ReadonlyArray<string | number>): void {
    for (const requestId of requestIds) {
      const streamId = this.responseStreams.get(requestId);
      if (streamId !== undefined) this.forgetStream(streamId);
    }
  }

  /** How many streams are kept (for tests). */
  get streamCount(): number {
    return this.streams.size;
  }

  private forgetStream(streamId: StreamId): void {
    for (const event of this.streams.get(streamId) ?? []) {
      const responseId = responseIdOf(event.message);
      if (responseId !== undefined && this.responseStreams.get(responseId) === streamId) {
        this.responseStreams.delete(responseId);
      }
    }
    this.streams.delete(streamId);
  }
}

/** The JSON-RPC request ids of a POST body (one message or a batch). */
export function requestIdsOf(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) =>
    isRecord(message) && typeof message.method === 'string' && isId(message.id) ? [message.id] : [],
  );
}

function streamIdOf(eventId: EventId): StreamId | undefined {
  const at = eventId.lastIndexOf('.');
  return at > 0 ? eventId.slice(0, at) : undefined;
}

function responseIdOf(message: JSONRPCMessage): string | number | undefined {
  if (!isRecord(message) || 'method' in message || !('result' in message || 'error' in message)) return undefined;
  return isId(message.id) ? message.id : undefined;
}

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

function isJsonRpcMessage(message: JSONRPCMessage): boolean {
  return isRecord(message) && message.jsonrpc === '2.0';
}
