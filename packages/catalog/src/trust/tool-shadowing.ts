/**
 * Tool shadowing (docs/trust.md, "Description scanning"): a description that names another server's tool, or tells
 * the model what to do when it calls some other tool, can steer calls it has no business with. A name counts as
 * "another server's" only when that server has it and the scanned server does not, and only when it cannot be an
 * ordinary word: it holds `_`, `-`, `.` or an inner capital (`send_email`, `sendEmail`), or is written as a key
 * (`server:tool`). One-word names such as `search` or `fetch` are left to the call phrase below.
 */
import { normalizeForMatching } from './instruction-patterns.js';

export interface ShadowingMatch {
  reason: string;
  excerpt: string;
}

/** The other servers' names indexed once per names map (the catalog passes one map for a whole listing). */
type NameOwners = Map<string, { servers: string[]; name: string }>;

const ownersByMap = new WeakMap<ReadonlyMap<string, readonly string[]>, NameOwners>();

function isDistinctiveName(name: string): boolean {
  return name.length >= 4 && (/[_.-]/.test(name) || /[a-z][A-Z]/.test(name));
}

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lowercase distinctive name or `server:tool` key → the servers that have it, and the name as they spell it. */
function nameOwners(otherServersToolNames: ReadonlyMap<string, readonly string[]>): NameOwners {
  const cached = ownersByMap.get(otherServersToolNames);
  if (cached !== undefined) return cached;
  const owners: NameOwners = new Map();
  const add = (spelling: string, server: string, name: string): void => {
    const key = normalizeForMatching(spelling);
    const owner = owners.get(key) ?? { servers: [], name };
    if (!owner.servers.includes(server)) owner.servers.push(server);
    owners.set(key, owner);
  };
  for (const [server, names] of otherServersToolNames) {
    for (const name of names) {
      add(`${server}:${name}`, server, name);
      add(`${server}__${name}`, server, name);
      if (isDistinctiveName(name)) add(name, server, name);
    }
  }
  ownersByMap.set(otherServersToolNames, owners);
  return owners;
}

/** Name-like words (`send_email`, `mail:search`, `a.b-c`), without the punctuation that ends a sentence. */
const nameLikeWord = /[\p{L}\p{N}_][\p{L}\p{N}_.:-]*/gu;
const sentencePunctuation = new Set(['.', ':', '-']);

function excerptAt(text: string, index: number, length: number): string {
  const from = Math.max(0, index - 40);
  const to = Math.min(text.length, index + length + 40);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

/** "when calling X, also …", "before any call to X, …" about a tool other than this one. */
const callPhrase =
  /\b(?:when(?:ever)?|before|after|each time|every time)\s+(?:you\s+)?(?:call|calling|use|using|invoke|invoking|run|running)\s+(?:the\s+|any\s+|a\s+)?["'`]?([\w.:-]+)["'`]?(?:\s+tool)?,?\s+(?:you\s+)?(?:must\s+|should\s+|always\s+)?(?:also|first|always|instead|additionally|then\s+also)\b/;

const selfReferences = new Set(['this', 'it', 'me', 'these', 'them', 'tool', 'tools']);

/**
 * Findings for one field's text (as `normalizeForMatching` gave it): other servers' distinctive tool names and
 * keys, and call phrases about other tools.
 * `ownToolNames` are the scanned server's own names, normalized (naming those is ordinary); `otherServersToolNames` may hold the
 * scanned server too (it is skipped).
 */
export function findToolShadowing(
  normalized: string,
  serverId: string,
  ownToolNames: ReadonlySet<string>,
  otherServersToolNames: ReadonlyMap<string, readonly string[]>,
): ShadowingMatch[] {
  const matches: ShadowingMatch[] = [];
  const reported = new Set<string>();
  const owners = nameOwners(otherServersToolNames);
  for (const found of normalized.matchAll(nameLikeWord)) {
    let word = found[0];
    while (sentencePunctuation.has(word.at(-1) ?? '')) word = word.slice(0, -1);
    const owner = owners.get(word);
    if (owner === undefined || reported.has(word)) continue;
    const others = owner.servers.filter((server) => server !== serverId);
    const isKey = word.includes(':') || word.includes('__');
    if (others.length === 0 || (!isKey && ownToolNames.has(word))) continue;
    reported.add(word);
    matches.push({
      reason: isKey
        ? `names the tool ${others[0]}:${owner.name} of another server`
        : `names ${owner.name}, a tool of the server ${others.join(', ')}`,
      excerpt: excerptAt(normalized, found.index, word.length),
    });
  }
  const phrase = callPhrase.exec(normalized);
  if (phrase !== null) {
    const named = (phrase[1] ?? '').replace(new RegExp(`^${escapeForPattern(normalizeForMatching(serverId))}:`), '');
    if (!selfReferences.has(named) && !ownToolNames.has(named)) {
      matches.push({
        reason: `tells the model what to do when it calls "${named}", a tool other than this one`,
        excerpt: excerptAt(normalized, phrase.index, phrase[0].length),
      });
    }
  }
  return matches;
}
