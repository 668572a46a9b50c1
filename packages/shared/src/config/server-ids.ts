/**
 * From server keys to server ids (packages/shared/README.md, "Configuration"): each key normalized with
 * `normalizeServerId`. A key that leaves nothing usable cannot be kept (a warning says so); two keys that normalize
 * alike keep the first under the id, marked broken with a reason naming both, and skip the second (a warning says
 * so).
 */
import { normalizeServerId } from '../keys/server-id.js';
import { type ConfigPath, formatConfigPath } from './config-path.js';

export type IdAssignment =
  | { kind: 'assigned'; id: string }
  /** `reason` goes into the first entry's `configError`; `warning` says why this entry was skipped. */
  | { kind: 'collision'; id: string; reason: string; warning: string }
  | { kind: 'unusable'; warning: string };

export class ServerIdAssigner {
  private readonly firstById = new Map<string, { key: string; path: ConfigPath }>();

  assign(key: string, path: ConfigPath): IdAssignment {
    const id = normalizeServerId(key);
    if (id === undefined) {
      return {
        kind: 'unusable',
        warning: `${formatConfigPath(path)}: skipped: the key cannot be made into a server id (it needs at least one letter or digit)`,
      };
    }
    const first = this.firstById.get(id);
    if (first === undefined) {
      this.firstById.set(id, { key, path });
      return { kind: 'assigned', id };
    }
    const firstList = formatConfigPath(first.path.slice(0, -1));
    const sameList = firstList === formatConfigPath(path.slice(0, -1));
    // Keys of one list are named as written; keys of two lists (mcpServers and servers) by their paths.
    const [firstName, secondName] = sameList
      ? [first.key, key]
      : [formatConfigPath(first.path), formatConfigPath(path)];
    const both = `${JSON.stringify(firstName)} and ${JSON.stringify(secondName)} both normalize to server id ${JSON.stringify(id)}`;
    return {
      kind: 'collision',
      id,
      reason: `${firstList}: ${both}; rename one`,
      warning: `${formatConfigPath(path)}: skipped: ${both}`,
    };
  }
}
