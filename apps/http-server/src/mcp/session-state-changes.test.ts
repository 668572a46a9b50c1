import { describe, expect, it } from 'vitest';
import { recordAfter } from './session-state-changes.js';
import type { SharedSessionRecord } from './shared-session-record.js';

const record: SharedSessionRecord = { principal: 'main', initialize: {}, replica: 'r1', subscriptions: ['file:///a'] };
const message = (method: string, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method, params });

describe('recordAfter', () => {
  it('changes nothing for the requests that leave the session as it was', () => {
    expect(recordAfter(record, message('tools/call', { name: 'x' }))).toBeUndefined();
    expect(recordAfter(record, { jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(recordAfter(record, 'garbage')).toBeUndefined();
    expect(recordAfter(record, message('logging/setLevel', { level: 3 }))).toBeUndefined();
  });

  it('keeps the last log level and the subscribed URIs, batches included', () => {
    expect(recordAfter(record, message('logging/setLevel', { level: 'debug' }))).toMatchObject({ logLevel: 'debug' });
    const batch = [
      message('resources/subscribe', { uri: 'file:///b' }),
      message('resources/unsubscribe', { uri: 'file:///a' }),
      message('logging/setLevel', { level: 'error' }),
    ];
    expect(recordAfter(record, batch)).toEqual({ ...record, subscriptions: ['file:///b'], logLevel: 'error' });
    expect(record.subscriptions).toEqual(['file:///a']);
  });
});
