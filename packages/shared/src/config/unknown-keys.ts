/**
 * Unknown keys are ignored (other clients' files carry their own settings), but a misspelt key silently doing
 * nothing is the worst kind of error, so each one becomes a warning, with "did you mean" when a known key is close.
 */
import { isRecord } from '../text/is-record.js';
import type { ConfigPath } from './config-path.js';
import type { ParseContext } from './parse-context.js';

/** Misspellings and other clients' words that no edit distance reaches (`enviroment` is 7 edits from `env`). */
const ALIASES: Readonly<Record<string, string>> = {
  environment: 'env',
  enviroment: 'env',
  environmentvariables: 'env',
  envvars: 'env',
  arguments: 'args',
  argv: 'args',
  cmd: 'command',
  executable: 'command',
  header: 'headers',
  endpoint: 'url',
  uri: 'url',
  workingdirectory: 'cwd',
  workingdir: 'cwd',
  workdir: 'cwd',
  timeout: 'timeoutMs',
  startuptimeout: 'startupTimeoutMs',
  permissions: 'toolPermissions',
  tag: 'tags',
  project: 'projects',
  servers: 'mcpServers',
  mcp: 'mcpServers',
};

export interface UnknownKeyOptions {
  /** Keys of other clients that mean nothing here and are ignored without a word. */
  ignored?: ReadonlySet<string>;
  /** Warn only when there is a suggestion (the top level, which other clients' settings share). */
  onlyWithSuggestion?: boolean;
  /** A note for a particular key instead of the plain "unknown key" (e.g. what to write instead). */
  notes?: Readonly<Record<string, string>>;
}

/** Warns about every own key of `value` (when it is an object) that is not in `known`. */
export function warnUnknownKeys(
  value: unknown,
  known: readonly string[],
  path: ConfigPath,
  context: ParseContext,
  options: UnknownKeyOptions = {},
): void {
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    if (known.includes(key) || options.ignored?.has(key)) continue;
    const suggestion = suggestKey(key, known);
    if (suggestion === undefined && options.onlyWithSuggestion) continue;
    const note = options.notes?.[key];
    const hint = suggestion === undefined ? '' : `; did you mean "${suggestion}"?`;
    context.warn([...path, key], `${note ?? 'unknown key, ignored'}${hint}`);
  }
}

/**
 * The known key `key` most likely meant: the same up to case and `-`/`_`, an alias, within a small edit distance,
 * or a known key it starts with (`enviroment` → `env`). Undefined when nothing is close.
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const folded = fold(key);
  if (folded === '') return undefined;
  const sameFolded = known.find((candidate) => fold(candidate) === folded);
  if (sameFolded !== undefined) return sameFolded;
  const alias = Object.hasOwn(ALIASES, folded) ? ALIASES[folded] : undefined;
  if (alias !== undefined && known.includes(alias)) return alias;

  const limit = folded.length <= 4 ? 1 : folded.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(folded, fold(candidate), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  return known.find((candidate) => candidate.length >= 3 && folded.startsWith(fold(candidate)));
}

function fold(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

/** Damerau–Levenshtein distance (adjacent swaps count once), giving up above `limit`. */
function editDistance(left: string, right: string, limit: number): number {
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    let rowMinimum = row;
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let value = Math.min(
        (previous[column] ?? 0) + 1,
        (current[column - 1] ?? 0) + 1,
        (previous[column - 1] ?? 0) + cost,
      );
      if (row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1]) {
        value = Math.min(value, (previousPrevious[column - 2] ?? 0) + 1);
      }
      current[column] = value;
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return limit + 1;
    previousPrevious = previous;
    previous = current;
  }
  return previous[right.length] ?? limit + 1;
}
