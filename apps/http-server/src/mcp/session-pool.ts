/** What the pool needs to know of a session to share the slots fairly. */
export interface PooledSession {
  /** Whose session it is: the token id, or one key for every anonymous caller. */
  readonly principal: string;
  /** When the client last sent a request in it (ms). */
  lastSeen: number;
  /** True while no request of the session is waiting for its answer. */
  isIdle(): boolean;
}

export interface SessionPoolLimits {
  /** Open sessions at most, all tokens together. */
  maxSessions: number;
  /** Open sessions at most per token. */
  maxSessionsPerPrincipal: number;
}

/** A slot held for a session being opened (its `initialize` is running); commit it or release it. */
export interface SessionSlot<Session extends PooledSession> {
  /** Sessions closed to make room: the caller ends them. */
  readonly evicted: ReadonlyArray<{ id: string; session: Session }>;
  commit(id: string, session: Session): void;
  release(): void;
}

export type SessionAdmission<Session extends PooledSession> =
  | { admitted: true; slot: SessionSlot<Session> }
  | { admitted: false; message: string };

/**
 * The open MCP sessions, shared fairly between tokens (issue 14): sessions are capped per token as well as in total,
 * so one token can no longer hold every slot. A token at its own cap replaces its oldest idle session. When the total
 * is full, the oldest idle session of a token holding more sessions than the newcomer's would makes room; failing
 * that, the newcomer's own oldest idle session. Only when no such session is idle is the new one refused (503).
 * Sessions whose requests are still being answered are never evicted.
 */
export class SessionPool<Session extends PooledSession> {
  private readonly sessions = new Map<string, Session>();
  /** Slots held by sessions still opening, per principal. */
  private readonly opening = new Map<string, number>();
  private openingTotal = 0;

  constructor(private readonly limits: SessionPoolLimits) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  delete(id: string): boolean {
    return this.sessions.delete(id);
  }

  ids(): string[] {
    return [...this.sessions.keys()];
  }

  entries(): IterableIterator<[string, Session]> {
    return this.sessions.entries();
  }

  /** Makes room for a new session of `principal`, evicting as described above, or says why it cannot. */
  admit(principal: string): SessionAdmission<Session> {
    const { maxSessions, maxSessionsPerPrincipal } = this.limits;
    const held = this.countOf(principal);
    let victim: [string, Session] | undefined;
    if (held >= maxSessionsPerPrincipal) {
      victim = this.oldestIdle((session) => session.principal === principal);
      if (!victim) {
        return {
          admitted: false,
          message: `Too many open sessions for this token (${maxSessionsPerPrincipal}), none idle; close one or try again later`,
        };
      }
    } else if (this.sessions.size + this.openingTotal >= maxSessions) {
      // A token holding more than the newcomer's would gives one up first; else the newcomer's own oldest idle goes.
      const counts = this.countsByPrincipal();
      victim =
        this.oldestIdle((session) => (counts.get(session.principal) ?? 0) > held + 1) ??
        this.oldestIdle((session) => session.principal === principal);
      if (!victim) {
        return {
          admitted: false,
          message: `Too many open sessions (${maxSessions}), none idle; close one or try again later`,
        };
      }
    }
    const evicted: Array<{ id: string; session: Session }> = [];
    if (victim) {
      this.sessions.delete(victim[0]);
      evicted.push({ id: victim[0], session: victim[1] });
    }
    this.opening.set(principal, (this.opening.get(principal) ?? 0) + 1);
    this.openingTotal += 1;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      const left = (this.opening.get(principal) ?? 1) - 1;
      if (left > 0) this.opening.set(principal, left);
      else this.opening.delete(principal);
      this.openingTotal -= 1;
      return true;
    };
    return {
      admitted: true,
      slot: {
        evicted,
        commit: (id, session) => {
          if (settle()) this.sessions.set(id, session);
        },
        release: () => {
          settle();
        },
      },
    };
  }

  private countOf(principal: string): number {
    let count = this.opening.get(principal) ?? 0;
    for (const session of this.sessions.values()) if (session.principal === principal) count += 1;
    return count;
  }

  private countsByPrincipal(): Map<string, number> {
    const counts = new Map(this.opening);
    for (const session of this.sessions.values()) {
      counts.set(session.principal, (counts.get(session.principal) ?? 0) + 1);
    }
    return counts;
  }

  private oldestIdle(matches: (session: Session) => boolean): [string, Session] | undefined {
    let oldest: [string, Session] | undefined;
    for (const entry of this.sessions) {
      const session = entry[1];
      if (!matches(session) || !session.isIdle()) continue;
      if (!oldest || session.lastSeen < oldest[1].lastSeen) oldest = entry;
    }
    return oldest;
  }
}
