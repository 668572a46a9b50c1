import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';
import { standaloneStreamId } from '../legacy/node-session-transport.js';

type StreamId = string;
type EventId = string;

export interface SessionEventStoreOptions {
  /** POST streams kept at most (the least recently used goes first). Default 32. */
  maxStreams?: number;
  /** Events kept per stream at most (the oldest goes first: a long call's early progress). Default 64. */
  maxEventsPerStream?: number;
  /**
   * How long a POST stream is kept after its last event (stored or replayed). Default 5 minutes: a client that lost
   * its stream reconnects within seconds (`retry`), and a call that answers later still leaves its response to replay.
   */
  maxAgeMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** How long a client waits before it reconnects to a stream that ended early (the SSE `retry` field). */
export const sseRetryIntervalMs = 1000;

interface StoredEvent {
  id: EventId;
  message: JSONRPCMessage;
}

interface StoredStream {
  events: StoredEvent[];
  /** When an event was last stored or replayed. */
  usedAt: number;
}

/**
 * The events of one 2025 session's SSE streams, so a client whose POST stream broke off (a proxy's idle cut, a
 * dropped connection) can resume it with `GET` + `Last-Event-ID` and still get its response (Streamable HTTP
 * resumability, SEP-1699). Given to the SDK's transport, it also makes the transport open each POST stream with a
 * priming event (an id, empty data) and the `retry` field, for clients of 2025-11-25 and later.
 *
 * Bounded: a stream whose every response was delivered on its own HTTP response is forgotten then
 * (`delivered`), since nobody will resume it; only broken-off streams and the session's GET stream stay, within
 * `maxStreams` × `maxEventsPerStream`, and a broken-off stream only `maxAgeMs` after its last use. An event id is `<stream id>.<n>`: the stream is found from it without a
 * table, and ids of another session are unknown here (each session has its own store).
 */
export class SessionEventStore implements EventStore {
  /** In order of use, the least recently used first. */
  private readonly streams = new Map<StreamId, StoredStream>();
  /** The stream each request's response went on (to forget the stream once it was delivered). */
  private readonly responseStreams = new Map<string | number, StreamId>();
  private readonly maxStreams: number;
  private readonly maxEventsPerStream: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private sequence = 0;

  constructor(options: SessionEventStoreOptions = {}) {
    this.maxStreams = options.maxStreams ?? 32;
    this.maxEventsPerStream = options.maxEventsPerStream ?? 64;
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.forgetStale();
    this.sequence += 1;
    const id = `${streamId}.${this.sequence}`;
    const stream = this.use(streamId) ?? { events: [], usedAt: this.now() };
    this.streams.set(streamId, stream);
    if (this.postStreamCount() > this.maxStreams) this.forgetLeastRecentlyUsed();
    stream.events.push({ id, message });
    if (stream.events.length > this.maxEventsPerStream) stream.events.shift();
    const responseId = responseIdOf(message);
    if (responseId !== undefined) this.responseStreams.set(responseId, streamId);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    this.forgetStale();
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
    this.forgetStale();
    const streamId = streamIdOf(lastEventId);
    const events = streamId !== undefined ? this.use(streamId)?.events : undefined;
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

  /** The stream, moved to the most recently used end; undefined when it is not kept. */
  private use(streamId: StreamId): StoredStream | undefined {
    const stream = this.streams.get(streamId);
    if (!stream) return undefined;
    this.streams.delete(streamId);
    stream.usedAt = this.now();
    this.streams.set(streamId, stream);
    return stream;
  }

  private postStreamCount(): number {
    return this.streams.size - (this.streams.has(standaloneStreamId) ? 1 : 0);
  }

  private forgetLeastRecentlyUsed(): void {
    for (const streamId of this.streams.keys()) {
      if (streamId === standaloneStreamId) continue;
      this.forgetStream(streamId);
      return;
    }
  }

  /** Broken-off streams unused for `maxAgeMs`: their client is gone, or got its answer elsewhere. */
  private forgetStale(): void {
    const oldest = this.now() - this.maxAgeMs;
    for (const [streamId, stream] of this.streams) {
      // In order of use: the first one used recently enough ends the search.
      if (stream.usedAt >= oldest) return;
      if (streamId !== standaloneStreamId) this.forgetStream(streamId);
    }
  }

  private forgetStream(streamId: StreamId): void {
    for (const event of this.streams.get(streamId)?.events ?? []) {
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
