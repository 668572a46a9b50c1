import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JsonRpcWireError } from '../wire-errors.js';
import { callerIdentity, callIdentity, createRequestStateCodec } from './request-state-codec.js';

const payload = { kind: 'parked', callId: 'c1', caller: callerIdentity({ tokenId: 'ann' }), call: 'x:y#1' } as const;

function refusal(open: () => unknown): unknown {
  try {
    open();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('requestState codec', () => {
  it('opens what it sealed, until it expires', () => {
    let now = 1_000;
    const codec = createRequestStateCodec({ ttlMs: 50, now: () => now });
    const state = codec.seal(payload);
    expect(codec.open(state)).toEqual(payload);
    now += 51;
    const expired = refusal(() => codec.open(state));
    expect(expired).toBeInstanceOf(JsonRpcWireError);
    expect(expired).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });

  it('refuses a changed payload, a changed signature, another key and anything that is not ours', () => {
    const codec = createRequestStateCodec();
    const state = codec.seal(payload);
    const [head, body = '', mac = ''] = state.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, caller: callerIdentity({}), exp: Date.now() + 1e6 }));
    for (const bad of [
      `${head}.${forged.toString('base64url')}.${mac}`,
      `${head}.${body}.${mac.slice(1)}`,
      createRequestStateCodec({ key: randomBytes(32) }).seal(payload),
      'ask',
      `${state}.more`,
      '',
    ]) {
      expect(refusal(() => codec.open(bad))).toMatchObject({ code: -32602 });
    }
  });

  it('names callers by token and project, and calls by tool and arguments in any key order', () => {
    expect(callerIdentity({ tokenId: 'a' })).not.toBe(callerIdentity({ projectId: 'a' }));
    expect(callIdentity('s:t', { a: 1, b: { c: [1, 2] } })).toBe(callIdentity('s:t', { b: { c: [1, 2] }, a: 1 }));
    expect(callIdentity('s:t', { a: 1 })).not.toBe(callIdentity('s:t', { a: 2 }));
    expect(callIdentity('s:t', {})).not.toBe(callIdentity('s:u', {}));
    expect(() => createRequestStateCodec({ key: randomBytes(16) })).toThrow(RangeError);
  });
});
