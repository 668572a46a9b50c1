/**
 * The indexes of the tool sets a provider has seen, found in three steps, cheapest first:
 * 1. the same array (the catalog passes the same one while the tools stay the same);
 * 2. a new array of the same tool objects in the same order (an embedding host that copies its list per query):
 *    one identity comparison per tool against each kept set;
 * 3. a new array whose objects have the same content: position by position, an object that is not the kept one is
 *    compared with it text by text (`same-search-text.ts`), stopping at the first difference.
 * Only a tool set none of them knows is indexed. The last `capacity` sets are kept for steps 2 and 3; each keeps a
 * copy of its array, which holds its tool objects alive while it is kept.
 */
import type { ToolInfo } from '@search-mcp/shared';
import { sameSearchText } from './same-search-text.js';

interface KeptSet<Entry> {
  /** A copy of the array last seen for this set (a copy: the caller may change its own array in place). */
  tools: readonly ToolInfo[];
  entry: Entry;
}

export class ToolIndexCache<Entry extends { toolCount: number }> {
  private readonly byArray = new WeakMap<readonly ToolInfo[], Entry>();
  /** Most recently used last. */
  private readonly kept: Array<KeptSet<Entry>> = [];
  private builds = 0;

  /** `capacity`: how many indexes to keep for new arrays with the same tools (0: none). */
  constructor(
    private readonly capacity: number,
    private readonly build: (tools: readonly ToolInfo[]) => Entry,
  ) {}

  /** How many indexes were built (a tool set is indexed once until it changes). */
  get buildCount(): number {
    return this.builds;
  }

  /** The index of a tool set, built when neither the array, its objects nor their content is known. */
  get(tools: readonly ToolInfo[]): Entry {
    const known = this.byArray.get(tools);
    // The same array grown or shrunk in place (a caller mutating it) is a new tool set.
    if (known !== undefined && known.toolCount === tools.length) return known;

    for (const set of this.kept) if (sameObjects(set.tools, tools)) return this.reuse(set, tools);
    for (const set of this.kept) if (sameContent(set, tools)) return this.reuse(set, tools);

    const entry = this.build(tools);
    this.builds++;
    this.byArray.set(tools, entry);
    if (this.capacity > 0) {
      this.kept.push({ tools: tools.slice(), entry });
      if (this.kept.length > this.capacity) this.kept.shift();
    }
    return entry;
  }

  /** Serves a kept set for a new array, whose objects replace the kept ones (the likelier next caller). */
  private reuse(set: KeptSet<Entry>, tools: readonly ToolInfo[]): Entry {
    this.kept.splice(this.kept.indexOf(set), 1);
    this.kept.push(set);
    if (set.tools.some((tool, at) => tool !== tools[at])) set.tools = tools.slice();
    this.byArray.set(tools, set.entry);
    return set.entry;
  }
}

/** Whether two arrays hold the same objects in the same order. */
function sameObjects(kept: readonly ToolInfo[], tools: readonly ToolInfo[]): boolean {
  if (kept.length !== tools.length) return false;
  for (let at = 0; at < kept.length; at++) if (kept[at] !== tools[at]) return false;
  return true;
}

/** Whether `tools` has the kept set's content: the same object or the same text at every position. */
function sameContent(set: KeptSet<unknown>, tools: readonly ToolInfo[]): boolean {
  if (set.tools.length !== tools.length) return false;
  for (let at = 0; at < tools.length; at++) if (!sameSearchText(set.tools[at], tools[at])) return false;
  return true;
}
