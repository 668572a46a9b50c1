/**
 * Tools whose own text says they are deprecated ("DEPRECATED: Use read_text_file instead.", "(deprecated)",
 * "deprecated in favour of X"), and the tool each names as its replacement. The ranker puts them below their
 * replacement and below other matches: a backend keeps an old tool for old clients, but a model should pick the new
 * one. A tool that is *about* deprecation ("Check if packages are deprecated") is not one of them.
 */
import type { ToolInfo } from '@search-mcp/shared';

/** Marks a tool deprecated: the word with punctuation after it, in brackets, at the start, or in a sentence about the tool. */
const DEPRECATED_MARKERS: readonly RegExp[] = [
  /\bdeprecated\s*[:!–—]/i,
  /^[\s\W]*deprecated\b/i,
  /[([]\s*deprecated\s*[)\]]/i,
  /\b(?:this|the)\s+(?:tool|function|endpoint|method|api|command|operation)\s+is\s+(?:now\s+)?deprecated\b/i,
  /\bdeprecated\s+in\s+favou?r\s+of\b/i,
  /\bdeprecated\s*[.;,]\s*(?:please\s+)?use\b/i,
];

const MENTIONS_DEPRECATION = /deprecat/i;

/** The replacement a deprecated tool names: "use X instead", "in favour of X", "replaced by X". */
const REPLACEMENT = /\b(?:use|in\s+favou?r\s+of|replaced\s+by|superseded\s+by)\s+[`'"]?([A-Za-z][\w.:/-]*[A-Za-z0-9])/i;

/** No deprecation; deprecated without a replacement in the tool set; otherwise the replacement's document id. */
export const NOT_DEPRECATED = -1;
export const NO_REPLACEMENT = -2;

/** Whether a tool's description or title says it is deprecated, and the replacement it names. */
export function deprecationOf(tool: ToolInfo): { replacement?: string } | undefined {
  for (const text of [tool?.description, tool?.title, tool?.annotations?.title]) {
    // One cheap test first: almost no tool says "deprecat…" at all (this runs for every tool of a 50,000-tool index).
    if (typeof text !== 'string' || !MENTIONS_DEPRECATION.test(text)) continue;
    if (!DEPRECATED_MARKERS.some((marker) => marker.test(text))) continue;
    const replacement = REPLACEMENT.exec(text)?.[1];
    return replacement === undefined ? {} : { replacement };
  }
  return undefined;
}

/**
 * Per document: NOT_DEPRECATED, NO_REPLACEMENT, or the document id of the replacement (a tool of that name on the
 * same server, else the only tool of that name, else the tool of that key).
 */
export function findDeprecatedTools(tools: readonly ToolInfo[]): Int32Array {
  const state = new Int32Array(tools.length).fill(NOT_DEPRECATED);
  let byName: Map<string, number[]> | undefined;
  let byKey: Map<string, number> | undefined;
  tools.forEach((tool, doc) => {
    const deprecation = tool !== null && typeof tool === 'object' ? deprecationOf(tool) : undefined;
    if (deprecation === undefined) return;
    state[doc] = NO_REPLACEMENT;
    const name = deprecation.replacement;
    if (name === undefined) return;
    if (byName === undefined || byKey === undefined) {
      byName = new Map();
      byKey = new Map();
      tools.forEach((candidate, index) => {
        if (typeof candidate?.toolName !== 'string') return;
        const list = byName?.get(candidate.toolName) ?? [];
        list.push(index);
        byName?.set(candidate.toolName, list);
        if (typeof candidate.toolKey === 'string') byKey?.set(candidate.toolKey, index);
      });
    }
    const candidates = (byName.get(name) ?? []).filter((index) => index !== doc);
    const sameServer = candidates.find((index) => tools[index]?.serverName === tool.serverName);
    const replacement = sameServer ?? (candidates.length === 1 ? candidates[0] : byKey.get(name));
    if (replacement !== undefined && replacement !== doc) state[doc] = replacement;
  });
  return state;
}
