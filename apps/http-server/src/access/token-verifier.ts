import { createHash, timingSafeEqual } from 'node:crypto';

export interface AccessToken {
  id: string;
  token: string;
  /** Projects the token may act in; absent: any. */
  projects?: readonly string[];
}

export interface VerifiedToken {
  id: string;
  projects?: readonly string[];
}

/**
 * Checks presented tokens in constant time. Tokens are kept only as SHA-256 digests, every configured token is
 * compared (no early exit that would tell which one nearly matched), and nothing here ever logs a token.
 */
export class TokenVerifier {
  private readonly entries: Array<{ id: string; projects?: readonly string[]; digest: Buffer }>;

  constructor(tokens: readonly AccessToken[]) {
    this.entries = tokens.map((token) => ({
      id: token.id,
      ...(token.projects ? { projects: token.projects } : {}),
      digest: digest(token.token),
    }));
  }

  get size(): number {
    return this.entries.length;
  }

  verify(presented: string): VerifiedToken | undefined {
    const candidate = digest(presented);
    let match: VerifiedToken | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(candidate, entry.digest) && !match)
        match = { id: entry.id, ...(entry.projects ? { projects: entry.projects } : {}) };
    }
    return match;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
