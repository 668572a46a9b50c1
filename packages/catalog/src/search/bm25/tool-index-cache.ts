/**
 * The indexes of the tool sets a provider has seen: by array identity first (the catalog passes the same array
 * while the tools stay the same), then, for a new array, by a hash of the tools' searchable text (a small LRU, see
 * `tool-set-fingerprint.ts`), so a rebuilt array with the same tools is not indexed again.
 */
import type { ToolInfo } from '@search-mcp/shared';
import { LruMap } from '../../lru-map.js';
import { toolSetFingerprint } from './tool-set-fingerprint.js';

export class ToolIndexCache<Entry extends { toolCount: number }> {
  private readonly byArray = new WeakMap<readonly ToolInfo[], Entry>();
  private readonly byFingerprint: LruMap<string, Entry>;
  private builds = 0;

  /** `capacity`: how many indexes to keep for new arrays with the same content (0: none). */
  constructor(
    capacity: number,
    private readonly build: (tools: readonly ToolInfo[]) => Entry,
  ) {
    this.byFingerprint = new LruMap(capacity);
  }

  /** How many indexes were built (a tool set is indexed once until it changes). */
  get buildCount(): number {
    return this.builds;
  }

  /** The index of a tool set, built when neither the array nor its fingerprint is known. */
  get(tools: readonly ToolInfo[]): Entry {
    const known = this.byArray.get(tools);
    // The same array grown or shrunk in place (a caller mutating it) is a new tool set.
    if (known !== undefined && known.toolCount === tools.length) return known;

    const fingerprint = toolSetFingerprint(tools);
    const cached = this.byFingerprint.get(fingerprint);
    if (cached !== undefined) {
      this.byArray.set(tools, cached);
      return cached;
    }

    const entry = this.build(tools);
    this.builds++;
    this.byArray.set(tools, entry);
    if (this.byFingerprint.capacity > 0) this.byFingerprint.set(fingerprint, entry);
    return entry;
  }
}
