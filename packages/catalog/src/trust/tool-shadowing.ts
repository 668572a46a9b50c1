/**
 * Tool shadowing (docs/trust.md, "Description scanning"): a description that names another server's tool, or tells
 * the model what to do when it calls some other tool, can steer calls it has no business with. A name counts as
 * "another server's" only when that server has it and the scanned server does not, and only when it cannot be an
 * ordinary word: it holds `_`, `-`, `.` or an inner capital (`send_email`, `sendEmail`), or is written as a key
 * (`server:tool`). One-word names such as `search` or `fetch` are left to the phrase pattern below.
 */
import { normalizeForMatching } from './instruction-patterns.js';

export interface ShadowingMatch {
  reason: string;
  excerpt: string;
}

function isDistinctiveName(name: string): boolean {
  return name.length >= 4 && (/[_.-]/.test(name) || /[a-z][A-Z]/.test(name));
}

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `send_email` as a word of its own (not inside `resend_emails`). */
function wordPattern(name: string): RegExp {
  return new RegExp(`(?<![\\w.-])${escapeForPattern(name.toLowerCase())}(?![\\w-])`);
}

function excerptAt(text: string, index: number, length: number): string {
  const from = Math.max(0, index - 40);
  const to = Math.min(text.length, index + length + 40);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

/** "when calling X, also …", "before any call to X, …", "instead of X, use …" about a tool other than this one. */
const callPhrase =
  /\b(?:when(?:ever)?|before|after|each time|every time)\s+(?:you\s+)?(?:call|calling|use|using|invoke|invoking|run|running)\s+(?:the\s+|any\s+|a\s+)?["'`]?([\w.:-]+)["'`]?(?:\s+tool)?,?\s+(?:you\s+)?(?:must\s+|should\s+|always\s+)?(?:also|first|always|instead|additionally|then\s+also)\b/;

/**
 * Findings for one field's text: other servers' distinctive tool names and keys, and call phrases about other tools.
 * `ownToolNames` are the scanned server's own names (naming those is ordinary).
 */
export function findToolShadowing(
  text: string,
  serverId: string,
  ownToolNames: ReadonlySet<string>,
  otherServersToolNames: ReadonlyMap<string, readonly string[]>,
): ShadowingMatch[] {
  const normalized = normalizeForMatching(text);
  const matches: ShadowingMatch[] = [];
  const ownLowercase = new Set([...ownToolNames].map((name) => name.toLowerCase()));
  for (const [otherServer, names] of otherServersToolNames) {
    if (otherServer === serverId) continue;
    for (const name of names) {
      const lowercase = name.toLowerCase();
      const keys = [`${otherServer}:${name}`, `${otherServer}__${name}`];
      for (const key of keys) {
        const index = normalized.indexOf(key.toLowerCase());
        if (index >= 0) {
          matches.push({
            reason: `names the tool ${otherServer}:${name} of another server`,
            excerpt: excerptAt(normalized, index, key.length),
          });
        }
      }
      if (ownLowercase.has(lowercase) || !isDistinctiveName(name)) continue;
      const found = wordPattern(name).exec(normalized);
      if (found !== null) {
        matches.push({
          reason: `names ${name}, a tool of the server ${otherServer}`,
          excerpt: excerptAt(normalized, found.index, name.length),
        });
      }
    }
  }
  const phrase = callPhrase.exec(normalized);
  if (phrase !== null) {
    const named = (phrase[1] ?? '').replace(/^[\w-]+:/, (prefix) =>
      prefix === `${serverId.toLowerCase()}:` ? '' : prefix,
    );
    const isThisTool =
      ['this', 'it', 'me', 'these', 'them', 'tool', 'tools'].includes(named) || ownLowercase.has(named);
    if (!isThisTool) {
      matches.push({
        reason: `tells the model what to do when it calls "${named}", a tool other than this one`,
        excerpt: excerptAt(normalized, phrase.index, phrase[0].length),
      });
    }
  }
  return matches;
}
