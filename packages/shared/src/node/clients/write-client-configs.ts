/**
 * The two writes of `search-mcp init`, both refusing to lose anything: `writeMergedConfig` creates the Search MCP
 * config and replaces an existing one only when told to (after a backup); `replaceClientServers` rewrites a
 * client's server list only when called with `{ backup: true }`, backing the file up first. Every write is atomic
 * (temporary file + rename), so a client never reads half a file.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatConfigPath } from '../../config/config-path.js';
import { describeValueType } from '../../config/schema-issue-message.js';
import { ConfigError } from '../../errors/config-error.js';
import { isRecord } from '../../text/is-record.js';
import { fileMode, writeBackup, writeFileAtomically } from '../atomic-file-write.js';
import { describeReadError } from '../load-config.js';
import { parseJsonWithComments } from '../parse-json-with-comments.js';
import type { ClientSnippet } from './render-client-snippet.js';

export interface WriteMergedConfigOptions {
  /** Replace an existing file (a backup of it is written first). Default false: an existing file is an error. */
  overwrite?: boolean;
}

export interface ConfigWriteResult {
  /** Absolute path written. */
  path: string;
  /** The backup of the file's previous content, when there was one. */
  backupPath?: string;
}

/**
 * Writes `config` as JSON (2-space indent) to `path`, creating parent directories. A new file gets mode 0600 (the
 * merged servers may carry tokens); a replaced file keeps its mode.
 */
export async function writeMergedConfig(
  path: string,
  config: Record<string, unknown>,
  options: WriteMergedConfigOptions = {},
): Promise<ConfigWriteResult> {
  const file = resolve(path);
  const content = `${JSON.stringify(config, null, 2)}\n`;
  if (options.overwrite !== true || (await fileMode(file)) === undefined) {
    try {
      // Created only if absent, atomically: a file appearing meanwhile is never replaced unasked.
      await writeFileAtomically(file, content, { replace: false });
      return { path: file };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      if (options.overwrite !== true) {
        refuse(file, 'already exists; it is replaced only when asked to (overwrite), after a backup');
      }
    }
  }
  const previous = await readText(file);
  const mode = (await fileMode(file)) ?? 0o600;
  const backupPath = await writeBackup(file, previous, mode);
  await writeFileAtomically(file, content, { mode });
  return { path: file, backupPath };
}

export interface ReplaceClientServersOptions {
  /** Required: the client's file is only rewritten with a backup of it written first. */
  backup: true;
  /**
   * Keys leading to the server list (`FoundClientConfig.serverListPath`); default `[snippet.serverListKey]`.
   * Every other part of the file is kept as it is.
   */
  serverListPath?: readonly string[];
}

/**
 * Replaces the server list of a client's config file with `snippet.servers` (Search MCP alone), keeping every other
 * key, their order and the file's indentation. Writes a timestamped backup first. Refuses a file with comments or
 * trailing commas (VS Code `settings.json` often has them): writing it back would drop them, so the user pastes
 * `snippet.text` by hand instead.
 */
export async function replaceClientServers(
  path: string,
  snippet: ClientSnippet,
  options: ReplaceClientServersOptions,
): Promise<ConfigWriteResult & { backupPath: string }> {
  const file = resolve(path);
  if (options?.backup !== true) refuse(file, 'a client file is rewritten only with { backup: true }');
  const text = await readText(file);
  // A byte order mark (Windows editors) is kept, but JSON.parse does not accept it.
  const byteOrderMark = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  let document: unknown;
  try {
    document = JSON.parse(text.slice(byteOrderMark.length));
  } catch {
    try {
      parseJsonWithComments(text);
    } catch (error) {
      refuse(file, `is not valid JSON (${(error as Error).message}); nothing was changed`);
    }
    refuse(file, 'has comments or trailing commas, which rewriting would drop; paste the snippet by hand instead');
  }
  if (!isRecord(document)) refuse(file, `expected an object at the top level, got ${describeValueType(document)}`);

  const listPath = options.serverListPath ?? [snippet.serverListKey];
  setAtPath(document, listPath, snippet.servers, file);

  const mode = (await fileMode(file)) ?? 0o600;
  const backupPath = await writeBackup(file, text, mode);
  let content = `${JSON.stringify(document, null, indentationOf(text))}${text.endsWith('\n') ? '\n' : ''}`;
  if (text.includes('\r\n')) content = content.replace(/\n/g, '\r\n');
  await writeFileAtomically(file, `${byteOrderMark}${content}`, { mode });
  return { path: file, backupPath };
}

/** Sets `value` at `keys` inside `document`, creating missing objects; a non-object on the way is an error. */
function setAtPath(document: Record<string, unknown>, keys: readonly string[], value: unknown, file: string): void {
  if (keys.length === 0) refuse(file, 'the server list path is empty');
  let current = document;
  keys.forEach((key, index) => {
    const isLast = index === keys.length - 1;
    const existing = Object.hasOwn(current, key) ? current[key] : undefined;
    if (!isLast && existing !== undefined && !isRecord(existing)) {
      refuse(
        file,
        `${formatConfigPath(keys.slice(0, index + 1))}: expected an object, got ${describeValueType(existing)}`,
      );
    }
    // defineProperty: a key such as "__proto__" stays an ordinary key.
    const next = isLast ? value : ((existing as Record<string, unknown> | undefined) ?? {});
    Object.defineProperty(current, key, { value: next, enumerable: true, writable: true, configurable: true });
    if (!isLast) current = next as Record<string, unknown>;
  });
}

/** The indentation of the file's first indented line (tabs or spaces); 2 spaces when there is none. */
function indentationOf(text: string): string | number {
  const match = /\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? 2;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const message = describeReadError(error, file);
    throw new ConfigError({ issues: [{ path: '', message }], file, message, cause: error });
  }
}

function refuse(file: string, reason: string): never {
  const message = `${file} ${reason}`;
  throw new ConfigError({ issues: [{ path: '', message }], file, message });
}
