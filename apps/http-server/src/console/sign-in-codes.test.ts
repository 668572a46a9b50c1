import { describe, expect, it } from 'vitest';
import { SignInCodes, signInCodeLifetimeMs } from './sign-in-codes.js';

describe('SignInCodes', () => {
  it('trades each code once for its token', () => {
    const codes = new SignInCodes();
    const first = codes.create('token-a');
    const second = codes.create('token-b');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(codes.redeem(second)).toBe('token-b');
    expect(codes.redeem(second)).toBeUndefined();
    expect(codes.redeem(first)).toBe('token-a');
    expect(codes.redeem('unknown')).toBeUndefined();
  });

  it('forgets a code after ten minutes', () => {
    let now = 1_000_000;
    const codes = new SignInCodes(() => now);
    const code = codes.create('token');
    now += signInCodeLifetimeMs;
    expect(codes.redeem(code)).toBeUndefined();
    const fresh = codes.create('token');
    now += signInCodeLifetimeMs - 1;
    expect(codes.redeem(fresh)).toBe('token');
  });
});
