/**
 * Arguments inside a request: URLs, domains, file paths and file names ("save it to /root/markdown/report.md",
 * "open example.com"). Their words are values the tool will receive, not what the tool does: `markdown` in a
 * directory name says little about which tool to use, while the presence of a path says "files", and a URL says
 * "web page". The provider weighs argument words down and adds the kind of argument as a term instead.
 */

export type QueryArgumentKind = 'url' | 'path' | 'file';

export interface QueryArgument {
  kind: QueryArgumentKind;
  text: string;
}

export interface SplitQuery {
  /** The query with the arguments replaced by spaces. */
  rest: string;
  arguments: QueryArgument[];
}

const FILE_EXTENSIONS =
  'md|markdown|txt|json|jsonl|ya?ml|toml|ini|cfg|conf|env|csv|tsv|xlsx?|docx?|pptx?|pdf|png|jpe?g|gif|svg|webp|html?|xml|' +
  'log|py|js|mjs|cjs|ts|tsx|jsx|go|rs|java|kt|rb|php|sh|sql|zip|tar|gz|tgz|wav|mp3|mp4|mov|ipynb';
const TOP_LEVEL_DOMAINS = 'com|org|net|io|dev|ai|app|co|jp|cn|uk|de|fr|gov|edu|info|me|xyz|tv|ly|so|us|ca|au|in|ru|kr';

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;
const FILE_NAME_END = new RegExp(`\\.(?:${FILE_EXTENSIONS})$`, 'i');
// A bare `name.js` is more often a library (Next.js, Node.js) than a file: only paths count for scripts.
const BARE_FILE_EXTENSIONS = FILE_EXTENSIONS.replace('|js|mjs|cjs', '');

// Order matters: URLs first (they contain paths and domains), then paths (they contain file names).
const PATTERNS: ReadonlyArray<{ kind: QueryArgumentKind; re: RegExp }> = [
  { kind: 'url', re: /\b(?:https?|ftp|wss?):\/\/[^\s<>"'`]+/gi },
  { kind: 'url', re: /\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\/[^\s<>"'`]*)?/gi },
  {
    kind: 'url',
    re: new RegExp(`\\b[a-z0-9][a-z0-9-]*(?:\\.[a-z0-9-]+)*\\.(?:${TOP_LEVEL_DOMAINS})\\b(?:\\/[^\\s<>"'\`]*)?`, 'gi'),
  },
  { kind: 'path', re: /(?<=^|[\s("'`=:])(?:~|\.{1,2})?\/[^\s"'`()<>]+/g },
  { kind: 'path', re: /\b[a-z]:\\[^\s"'`<>]+/gi },
  { kind: 'file', re: new RegExp(`(?<![\\w./-])[\\w-]+\\.(?:${BARE_FILE_EXTENSIONS})\\b`, 'gi') },
];

/** Finds URL, path and file-name arguments in a query. Never throws. */
export function splitQueryArguments(query: string): SplitQuery {
  let rest = query;
  const found: QueryArgument[] = [];
  for (const { kind, re } of PATTERNS) {
    re.lastIndex = 0;
    rest = rest.replace(re, (match) => {
      // Sentence punctuation right after a URL or path is not part of it ("save to /tmp/a.md, then …").
      const text = match.replace(TRAILING_PUNCTUATION, '');
      const trailing = match.slice(text.length);
      if (text.length === 0) return match;
      // A path with a file extension at its end names a file.
      const fileLike = kind === 'path' && FILE_NAME_END.test(text);
      found.push({ kind: fileLike ? 'file' : kind, text });
      return ` ${trailing}`;
    });
  }
  return { rest, arguments: found };
}
