import { createHash } from 'node:crypto';

/** What clients accept as a listed tool or prompt name (Claude Desktop, OpenAI and Bedrock reject dots). */
export const EXPOSED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const maxLength = 64;

/**
 * The name a tool or prompt is listed under (CONTRACT §3): `server__name`. Characters clients reject become `_`; a
 * name that had to change, or is longer than 64, keeps a readable prefix and ends in a hash of `server:name`, so it
 * is stable across restarts and unique. Requests are routed through an `ExposedNames` table, never by parsing this.
 */
export function exposedName(serverId: string, name: string): string {
  const plain = `${serverId}__${name}`;
  if (EXPOSED_NAME_PATTERN.test(plain)) return plain;
  const sanitized = plain.replace(/[^a-zA-Z0-9_-]/g, '_');
  const hash = createHash('sha256').update(`${serverId}:${name}`).digest('hex').slice(0, 8);
  return `${sanitized.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

/** One thing listed under an exposed name: its key (`server:name`), its server and its own name there. */
export interface NamedEntry {
  key: string;
  serverId: string;
  name: string;
}

/** The lookup table from listed names to keys (`server:name`) and back. */
export class ExposedNames {
  private readonly toKey = new Map<string, string>();
  private readonly toName = new Map<string, string>();

  constructor(entries: Iterable<NamedEntry>) {
    for (const entry of entries) {
      let name = exposedName(entry.serverId, entry.name);
      // Two keys that sanitize alike (`a.b` and `a_b`): the second gets the hashed form.
      if (this.toKey.has(name) && this.toKey.get(name) !== entry.key)
        name = exposedName(entry.serverId, `${entry.name}\u0000`);
      this.toKey.set(name, entry.key);
      this.toName.set(entry.key, name);
    }
  }

  keyOf(exposedName: string): string | undefined {
    return this.toKey.get(exposedName);
  }

  nameOf(key: string): string | undefined {
    return this.toName.get(key);
  }
}
