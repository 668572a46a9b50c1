/**
 * From `mcpServers` keys to server ids (CONTRACT §2): each key normalized with `normalizeServerId`; a key that
 * leaves nothing usable, or two keys that normalize alike, are issues naming the keys.
 */
import { normalizeServerId } from '../keys/server-id.js';
import type { ParseContext } from './parse-context.js';

export class ServerIdAssigner {
  private readonly keyById = new Map<string, string>();

  constructor(private readonly context: ParseContext) {}

  /** The id of `key`; undefined (and an issue) when it cannot have one or an earlier key already has it. */
  assign(key: string): string | undefined {
    const id = normalizeServerId(key);
    if (id === undefined) {
      this.context.report(
        ['mcpServers', key],
        'cannot be made into a server id: it needs at least one letter or digit',
      );
      return undefined;
    }
    const firstKey = this.keyById.get(id);
    if (firstKey !== undefined) {
      this.context.report(
        ['mcpServers'],
        `${JSON.stringify(firstKey)} and ${JSON.stringify(key)} both normalize to server id ${JSON.stringify(id)}`,
      );
      return undefined;
    }
    this.keyById.set(id, key);
    return id;
  }
}
