import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { standaloneStreamId } from '../legacy/node-session-transport.js';
import { requestIdsOf, SessionEventStore } from './session-event-store.js';

const progress = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});
const response = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

async function replay(store: SessionEventStore, lastEventId: string) {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { streamId, sent };
}

describe('SessionEventStore', () => {
  it('replays what came after an event, without the priming event, and finds the stream of an id', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('s1', {} as JSONRPCMessage);
    const first = await store.storeEvent('s1', progress(1));
    await store.storeEvent('s2', progress(9));
    const answer = await store.storeEvent('s1', response(4));
    expect(await store.getStreamIdForEventId(first)).toBe('s1');
    expect(await store.getStreamIdForEventId('nowhere.3')).toBeUndefined();
    expect(await store.getStreamIdForEventId('no-dot')).toBeUndefined();
    expect(await replay(store, priming)).toEqual({
      streamId: 's1',
      sent: [
        [first, progress(1)],
        [answer, response(4)],
      ],
    });
    expect((await replay(store, first)).sent).toEqual([[answer, response(4)]]);
    await expect(replay(store, 'nowhere.1')).rejects.toThrow('Unknown event id');
  });

  it('forgets a stream once the POST that carried its requests was delivered', async () => {
    const store = new SessionEventStore();
    const kept = await store.storeEvent('broken', {} as JSONRPCMessage);
    await store.storeEvent('broken', response(1));
    await store.storeEvent('done', {} as JSONRPCMessage);
    await store.storeEvent('done', response(2));
    store.delivered([2, 99]);
    expect(store.streamCount).toBe(1);
    expect(await store.getStreamIdForEventId(kept)).toBe('broken');
  });

  it('keeps at most maxStreams streams and maxEventsPerStream events (an id no longer kept replays all that is)', async () => {
    const store = new SessionEventStore({ maxStreams: 2, maxEventsPerStream: 3 });
    const oldest = await store.storeEvent('a', progress(0));
    await store.storeEvent('b', progress(0));
    await store.storeEvent('c', progress(0));
    expect(store.streamCount).toBe(2);
    expect(await store.getStreamIdForEventId(oldest)).toBeUndefined();
    const dropped = await store.storeEvent('c', progress(1));
    for (const n of [2, 3, 4]) await store.storeEvent('c', progress(n));
    expect((await replay(store, dropped)).sent.map(([, message]) => message)).toEqual([2, 3, 4].map(progress));
  });

  it('never evicts the standalone GET stream, and evicts the stream least recently used', async () => {
    const store = new SessionEventStore({ maxStreams: 2 });
    const standalone = await store.storeEvent(standaloneStreamId, progress(0));
    const used = await store.storeEvent('a', progress(0));
    const idle = await store.storeEvent('b', progress(0));
    await store.storeEvent('a', progress(1));
    await store.storeEvent('c', progress(0));
    expect(await store.getStreamIdForEventId(standalone)).toBe(standaloneStreamId);
    expect(await store.getStreamIdForEventId(used)).toBe('a');
    expect(await store.getStreamIdForEventId(idle)).toBeUndefined();
  });

  it('forgets a broken-off stream maxAgeMs after its last event, but not the standalone GET stream', async () => {
    let now = 0;
    const store = new SessionEventStore({ maxAgeMs: 1000, now: () => now });
    const standalone = await store.storeEvent(standaloneStreamId, progress(0));
    const stale = await store.storeEvent('stale', progress(0));
    const live = await store.storeEvent('live', progress(0));
    now = 600;
    await store.storeEvent('live', progress(1));
    now = 1000;
    expect(await store.getStreamIdForEventId(stale)).toBe('stale');
    now = 1001;
    expect(await store.getStreamIdForEventId(stale)).toBeUndefined();
    await expect(replay(store, stale)).rejects.toThrow('Unknown event id');
    expect((await replay(store, live)).sent).toEqual([[expect.any(String), progress(1)]]);
    now = 10_000;
    expect(await store.getStreamIdForEventId(standalone)).toBe(standaloneStreamId);
    expect(store.streamCount).toBe(1);
  });

  it('reads the request ids of a POST body, one message or a batch', () => {
    expect(requestIdsOf({ jsonrpc: '2.0', id: 3, method: 'tools/call' })).toEqual([3]);
    expect(
      requestIdsOf([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 5, result: {} },
      ]),
    ).toEqual(['a']);
    expect(requestIdsOf(undefined)).toEqual([]);
  });
});
