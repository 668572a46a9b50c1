import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a code may be traded (docs/console.md, "Signing in"). */
export const signInCodeLifetimeMs = 10 * 60_000;
/** Codes kept at most: a host that mints many (a test, a script) forgets the oldest first. */
const maxCodes = 100;

interface StoredCode {
  digest: Buffer;
  token: string;
  expiresAt: number;
}

/**
 * One-time sign-in codes for the console (`search-mcp ui` opens `/ui/#code=<code>`): each is traded once for the
 * token it stands for, within ten minutes. Kept in memory only, as digests; a presented code is compared with every
 * stored one in constant time, so the answer's timing says nothing about how close a guess was.
 */
export class SignInCodes {
  private codes: StoredCode[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** A new code (256 random bits, URL-safe) standing for `token`. */
  create(token: string): string {
    const code = randomBytes(32).toString('base64url');
    this.forgetExpired();
    if (this.codes.length >= maxCodes) this.codes.shift();
    this.codes.push({ digest: digestOf(code), token, expiresAt: this.now() + signInCodeLifetimeMs });
    return code;
  }

  /** The token `code` stands for, once: undefined for a code that is unknown, used already, or expired. */
  redeem(code: string): string | undefined {
    this.forgetExpired();
    const digest = digestOf(code);
    let found: StoredCode | undefined;
    // Every stored code is compared, found or not: no early exit.
    for (const stored of this.codes) if (timingSafeEqual(stored.digest, digest) && !found) found = stored;
    if (!found) return undefined;
    this.codes = this.codes.filter((stored) => stored !== found);
    return found.token;
  }

  private forgetExpired(): void {
    const now = this.now();
    this.codes = this.codes.filter((stored) => stored.expiresAt > now);
  }
}

function digestOf(code: string): Buffer {
  return createHash('sha256').update(code).digest();
}
