import { describe, expect, it } from 'vitest';
import { maxRecordedSubscriptions, stateChangesIn } from './session-state-changes.js';
import type { SharedSessionRecord } from './shared-session-record.js';

const record: SharedSessionRecord = { principal: 'main', initialize: {}, replica: 'r1', subscriptions: ['file:///a'] };
const message = (method: string, params: Record<string, unknown>, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/** The record after every change of `body`, each applied as if its request succeeded. */
const afterAll = (start: SharedSessionRecord, body: unknown) =>
  stateChangesIn(body).reduce<SharedSessionRecord>((current, change) => change.apply(current) ?? current, start);

describe('stateChangesIn', () => {
  it('finds nothing in the requests that leave the session as it was', () => {
    expect(stateChangesIn(message('tools/call', { name: 'x' }))).toEqual([]);
    expect(stateChangesIn({ jsonrpc: '2.0', id: 1, result: {} })).toEqual([]);
    expect(stateChangesIn('garbage')).toEqual([]);
    expect(stateChangesIn(message('logging/setLevel', { level: 3 }))).toEqual([]);
    // A notification has no answer to wait for: it changes nothing.
    expect(stateChangesIn({ jsonrpc: '2.0', method: 'resources/subscribe', params: { uri: 'file:///b' } })).toEqual([]);
  });

  it('keeps the last log level and the subscribed URIs, batches included, each under its request id', () => {
    const batch = [
      message('resources/subscribe', { uri: 'file:///b' }, 'one'),
      message('resources/unsubscribe', { uri: 'file:///a' }, 'two'),
      message('logging/setLevel', { level: 'error' }, 3),
    ];
    expect(stateChangesIn(batch).map((change) => change.requestId)).toEqual(['one', 'two', 3]);
    expect(afterAll(record, batch)).toEqual({ ...record, subscriptions: ['file:///b'], logLevel: 'error' });
    expect(record.subscriptions).toEqual(['file:///a']);
    expect(stateChangesIn(message('resources/subscribe', { uri: 'file:///a' }))[0]?.apply(record)).toBeUndefined();
  });

  it('records at most the capped number of subscriptions, and no URI past the length cap', () => {
    const full: SharedSessionRecord = {
      ...record,
      subscriptions: Array.from({ length: maxRecordedSubscriptions }, (_, index) => `file:///${index}`),
    };
    expect(stateChangesIn(message('resources/subscribe', { uri: 'file:///more' }))[0]?.apply(full)).toBeUndefined();
    const long = `file:///${'x'.repeat(5000)}`;
    expect(stateChangesIn(message('resources/subscribe', { uri: long }))[0]?.apply(record)).toBeUndefined();
    // Unsubscribing always works, and makes room.
    expect(
      stateChangesIn(message('resources/unsubscribe', { uri: 'file:///0' }))[0]?.apply(full)?.subscriptions,
    ).toHaveLength(maxRecordedSubscriptions - 1);
  });
});
