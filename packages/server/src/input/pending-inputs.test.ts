import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PendingInputs } from './pending-inputs.js';
import type { RequestStatePayload } from './request-state-codec.js';

// A registry per runtime (`createSearchMcpRuntime` makes one; `createSearchMcpServer` one per call without it): what
// one holds and seals is nobody else's. The end-to-end case, two runtimes and a 2026-07-28 peer each, is in
// `@search-mcp/runtime` (`pending-inputs-per-runtime.test.ts`).
const state: RequestStatePayload = { kind: 'backend', server: 's', backendState: 'b', caller: 'c', call: 't#d' };

describe('PendingInputs', () => {
  it('seals with a key of its own by default: another registry refuses its state', () => {
    const one = new PendingInputs();
    const other = new PendingInputs();
    const sealed = one.codec.seal(state);
    expect(one.codec.open(sealed)).toEqual(state);
    expect(() => other.codec.open(sealed)).toThrow('Invalid or expired requestState');
  });

  it('registries given the same requestStateKey (replicas) open each other’s states', () => {
    const requestStateKey = randomBytes(32);
    const sealed = new PendingInputs({ requestStateKey }).codec.seal(state);
    expect(new PendingInputs({ requestStateKey }).codec.open(sealed)).toEqual(state);
    expect(() => new PendingInputs({ requestStateKey: randomBytes(16) })).toThrow(RangeError);
  });

  it('holds its own calls only', () => {
    const one = new PendingInputs();
    const other = new PendingInputs();
    const call = one.create();
    expect(one.hold(call)).toBe(true);
    expect(one.get(call.id)).toBe(call);
    expect(other.get(call.id)).toBeUndefined();
    expect([one.size, other.size]).toEqual([1, 0]);
    one.forget(call);
    expect(one.size).toBe(0);
  });
});
