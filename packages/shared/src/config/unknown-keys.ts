/**
 * Unknown keys are ignored (other clients' files carry their own settings), but a misspelt key silently doing
 * nothing is the worst kind of error, so each one becomes a warning, with "did you mean" when a known key is close.
 */
import { isRecord } from '../text/is-record.js';
import { closestName, foldName } from '../text/nearest-names.js';
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
 * The known key `key` most likely meant: an alias, else the rule of every "did you mean" (`closestName`: the same up
 * to case and `-`/`_`, within a small edit distance, or a prefix either way, `enviroment` → `env`). Undefined when
 * nothing is close.
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const folded = foldName(key);
  if (folded === '') return undefined;
  const sameFolded = known.find((candidate) => foldName(candidate) === folded);
  if (sameFolded !== undefined) return sameFolded;
  const alias = Object.hasOwn(ALIASES, folded) ? ALIASES[folded] : undefined;
  if (alias !== undefined && known.includes(alias)) return alias;
  return closestName(key, known);
}
