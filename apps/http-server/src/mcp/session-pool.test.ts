import { describe, expect, it } from 'vitest';
import { type PooledSession, SessionPool, type SessionAdmission } from './session-pool.js';

class TestSession implements PooledSession {
  busy = false;
  constructor(
    readonly principal: string,
    public lastSeen: number,
  ) {}
  isIdle(): boolean {
    return !this.busy;
  }
}

function open(pool: SessionPool<TestSession>, id: string, principal: string, lastSeen: number) {
  const admission = pool.admit(principal);
  if (!admission.admitted) throw new Error(`not admitted: ${admission.message}`);
  const session = new TestSession(principal, lastSeen);
  admission.slot.commit(id, session);
  return { session, evicted: admission.slot.evicted.map((entry) => entry.id) };
}

const refused = (admission: SessionAdmission<TestSession>) => (admission.admitted ? undefined : admission.message);

describe('SessionPool', () => {
  it('admits up to the per-token cap, then replaces the oldest idle session of the same token', () => {
    const pool = new SessionPool<TestSession>({ maxSessions: 10, maxSessionsPerPrincipal: 2 });
    open(pool, 'a1', 'a', 1);
    open(pool, 'a2', 'a', 2);
    open(pool, 'b1', 'b', 0);
    const third = open(pool, 'a3', 'a', 3);
    expect(third.evicted).toEqual(['a1']);
    expect(pool.ids().sort()).toEqual(['a2', 'a3', 'b1']);
  });

  it('refuses a token at its cap whose sessions are all busy, and never evicts another token for it', () => {
    const pool = new SessionPool<TestSession>({ maxSessions: 10, maxSessionsPerPrincipal: 2 });
    open(pool, 'a1', 'a', 1).session.busy = true;
    open(pool, 'a2', 'a', 2).session.busy = true;
    open(pool, 'b1', 'b', 0);
    expect(refused(pool.admit('a'))).toMatch(/Too many open sessions for this token \(2\)/);
    expect(pool.ids().sort()).toEqual(['a1', 'a2', 'b1']);
  });

  it('keeps one token from locking out another when the total is full', () => {
    const pool = new SessionPool<TestSession>({ maxSessions: 3, maxSessionsPerPrincipal: 3 });
    open(pool, 'a1', 'a', 1);
    open(pool, 'a2', 'a', 2);
    open(pool, 'a3', 'a', 3);
    const newcomer = open(pool, 'b1', 'b', 4);
    expect(newcomer.evicted).toEqual(['a1']);
    // The total is full again; b would hold 2, a holds 2: a holds no more than b would, so b replaces its own.
    expect(open(pool, 'b2', 'b', 5).evicted).toEqual(['b1']);
    expect(pool.ids().sort()).toEqual(['a2', 'a3', 'b2']);
    // c holds none: a holds 2 > 1, so a's oldest idle session makes room, before c would replace anything of its own.
    expect(open(pool, 'c1', 'c', 6).evicted).toEqual(['a2']);
    expect(pool.ids().sort()).toEqual(['a3', 'b2', 'c1']);
  });

  it('refuses when the total is full and nothing that may be evicted is idle', () => {
    const pool = new SessionPool<TestSession>({ maxSessions: 2, maxSessionsPerPrincipal: 2 });
    open(pool, 'a1', 'a', 1).session.busy = true;
    open(pool, 'b1', 'b', 2);
    // c would hold 1; a and b hold 1 each: evicting them would not be fairer, so c waits.
    expect(refused(pool.admit('c'))).toMatch(/Too many open sessions \(2\)/);
    expect(pool.size).toBe(2);
  });

  it('counts sessions still opening, and frees the slot of one that never opened', () => {
    const pool = new SessionPool<TestSession>({ maxSessions: 2, maxSessionsPerPrincipal: 1 });
    const first = pool.admit('a');
    expect(first.admitted).toBe(true);
    // While a's first session is opening, a second one of a has no idle session to replace.
    expect(refused(pool.admit('a'))).toMatch(/for this token/);
    if (first.admitted) first.slot.release();
    expect(pool.admit('a').admitted).toBe(true);
    expect(pool.size).toBe(0);
  });

  it('commits a slot once', () => {
    const pool = new SessionPool<TestSession>({ maxSessions: 5, maxSessionsPerPrincipal: 5 });
    const admission = pool.admit('a');
    if (!admission.admitted) throw new Error('not admitted');
    admission.slot.commit('x', new TestSession('a', 1));
    admission.slot.commit('y', new TestSession('a', 2));
    admission.slot.release();
    expect(pool.ids()).toEqual(['x']);
  });
});
