import { createHash } from 'node:crypto';
import { EXPOSED_NAME_PATTERN, type ExposedNameStyle } from '@search-mcp/shared';

export { EXPOSED_NAME_PATTERN } from '@search-mcp/shared';

const maxLength = 64;

/**
 * The prefixed name of a tool or prompt: `server__name`. Characters clients reject become `_`; a name that had to
 * change, or is longer than 64, keeps a readable prefix and ends in a hash of `server:name`, so it is stable across
 * restarts and unique. Requests are routed through an `ExposedNames` table, never by parsing this.
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

export interface ExposedNamesOptions {
  /** Default `prefixed`. */
  style?: ExposedNameStyle;
  /**
   * Names that never go to a backend's entry under `original` (the meta-tools next to pinned tools): such an entry
   * is listed as `server__name`, so the name keeps meaning what it means for every client.
   */
  reserved?: ReadonlySet<string>;
}

/** A name several servers share under `original`: each of them is listed as `server__name` instead. */
export interface SharedName {
  name: string;
  /** The keys (`server:name`) that share it, in listing order. */
  keys: string[];
}

/**
 * The lookup table from listed names to keys (`server:name`) and back.
 *
 * `prefixed`: every entry is `server__name`. `original`: an entry is listed under its own name when that name fits
 * what clients accept and no other server has it; the entries of a name two servers share (and names that do not
 * fit, or are reserved) fall back to `server__name`, for those entries only. The names are given out in two passes
 * (own names first), so a fallback never takes a name another entry is listed under: it gets the hashed form.
 */
export class ExposedNames {
  private readonly toKey = new Map<string, string>();
  private readonly toName = new Map<string, string>();
  /** Under `original`: the names two or more servers share (listed prefixed instead). */
  readonly shared: readonly SharedName[];

  constructor(entries: Iterable<NamedEntry>, options: ExposedNamesOptions = {}) {
    const list = [...entries];
    const shared: SharedName[] = [];
    const own = new Set<NamedEntry>();
    if (options.style === 'original') {
      const byName = new Map<string, NamedEntry[]>();
      for (const entry of list) {
        const same = byName.get(entry.name);
        if (same) same.push(entry);
        else byName.set(entry.name, [entry]);
      }
      for (const [name, same] of byName) {
        if (same.length > 1) shared.push({ name, keys: same.map((entry) => entry.key) });
        else if (EXPOSED_NAME_PATTERN.test(name) && !options.reserved?.has(name)) own.add(same[0] as NamedEntry);
      }
      for (const entry of own) this.assign(entry.name, entry.key);
    }
    this.shared = shared;
    for (const entry of list) {
      if (own.has(entry)) continue;
      let name = exposedName(entry.serverId, entry.name);
      // Two keys that sanitize alike (`a.b` and `a_b`), or a fallback equal to another tool's own name: this one
      // gets the hashed form.
      if (this.toKey.has(name) && this.toKey.get(name) !== entry.key)
        name = exposedName(entry.serverId, `${entry.name}\u0000`);
      this.assign(name, entry.key);
    }
  }

  keyOf(exposedName: string): string | undefined {
    return this.toKey.get(exposedName);
  }

  nameOf(key: string): string | undefined {
    return this.toName.get(key);
  }

  private assign(name: string, key: string): void {
    this.toKey.set(name, key);
    this.toName.set(key, name);
  }
}
