/**
 * Hot reload (packages/shared/README.md, "Hot reload"): watches the config file and hands each new valid config to
 * the host, which starts, stops and restarts servers by `diffServerConfigs`.
 *
 * - The file's directory is watched, not the file: editors save by writing a new file and renaming it over the old
 *   one, and a watch on the old file would see nothing after the first save. A config reached through a symbolic
 *   link (dotfiles, Kubernetes config maps) also has the link target's directory watched.
 * - Bursts of events (one save is several) are debounced; reads are serialized, so results arrive in order.
 * - The text is read once and parsed with `loadConfig`'s own parser. A text already seen, or one that resolves to
 *   the config in use (a comment edited), does not fire `onChange`; a broken edit calls `onError` with the config
 *   still in use, which stays in use.
 */
import { type FSWatcher, lstatSync, realpathSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { VariableEnvironment } from '../config/env-expansion.js';
import type { ResolvedConfig } from '../config/resolved-config.js';
import { parseConfigText, readConfigText } from './load-config.js';

export interface WatchConfigFileOptions {
  /** A new valid config that differs from the one in use. */
  onChange(config: ResolvedConfig): void;
  /**
   * The file could not be read or parsed (a `ConfigError` naming the path and the problem, never a value), or the
   * watch itself failed. `lastGood` is the config still in use (undefined when none was ever read).
   */
  onError(error: Error, lastGood: ResolvedConfig | undefined): void;
  /** The file was looked at after an event or `check()` and nothing new was found. For debug logs. */
  onUnchanged?(): void;
  /** Quiet time after the last event before the file is read; default 100 ms. */
  debounceMs?: number;
  /** Variables for `${VAR}`; default `process.env`. */
  environment?: VariableEnvironment;
  /** As in `loadConfig` (Claude Code project scope); default `process.cwd()`. */
  projectDirectory?: string;
  /**
   * The config the host is running (as it loaded it at start). Given: every later change is compared with it, and
   * nothing is missed between loading and watching. Absent: the watcher reads the file first, without firing.
   */
  initialConfig?: ResolvedConfig;
}

export interface ConfigFileWatcher {
  /** Resolves once the watcher knows the config in use (at once with `initialConfig`). */
  readonly ready: Promise<void>;
  /** Reads the file now, as an event would (e.g. on SIGHUP); resolves when the callbacks for it have run. */
  check(): Promise<void>;
  /** Stops watching; no callback runs after it. */
  close(): void;
}

export const DEFAULT_CONFIG_WATCH_DEBOUNCE_MS = 100;

/**
 * Watches the config file at `path` until `close()`. Throws at once (an `fs.watch` error) when its directory cannot
 * be watched, e.g. it does not exist; everything after that goes to `onError`.
 */
export function watchConfigFile(path: string, options: WatchConfigFileOptions): ConfigFileWatcher {
  const file = resolve(path);
  const debounceMs = options.debounceMs ?? DEFAULT_CONFIG_WATCH_DEBOUNCE_MS;
  const loadOptions = { env: options.environment ?? process.env, projectDirectory: options.projectDirectory };

  let lastGood = options.initialConfig;
  let lastGoodFingerprint = lastGood === undefined ? undefined : fingerprint(lastGood);
  // The outcome of the last read (its text, or why it failed), so the same text or failure is handled once.
  let lastOutcome: string | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let queue: Promise<void> = Promise.resolve();

  const readAndApply = async (firing: boolean): Promise<void> => {
    let text: string;
    let config: ResolvedConfig;
    try {
      text = await readConfigText(file);
      if (closed) return;
      if (text === lastOutcome) {
        if (firing) options.onUnchanged?.();
        return;
      }
      lastOutcome = text;
      config = parseConfigText(text, file, loadOptions);
    } catch (error) {
      if (closed) return;
      const failure = error instanceof Error ? error : new Error(String(error));
      const outcome = `\u0000${failure.message}`;
      if (outcome === lastOutcome && firing) {
        options.onUnchanged?.();
        return;
      }
      lastOutcome = outcome;
      options.onError(failure, lastGood);
      return;
    }
    const current = fingerprint(config);
    if (current === lastGoodFingerprint) {
      if (firing) options.onUnchanged?.();
      return;
    }
    lastGood = config;
    lastGoodFingerprint = current;
    if (firing) options.onChange(config);
  };

  const enqueue = (firing: boolean): Promise<void> => {
    queue = queue.then(() => (closed ? undefined : readAndApply(firing)));
    return queue;
  };

  const schedule = () => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void enqueue(true);
    }, debounceMs);
  };

  const watchers: FSWatcher[] = [];
  const watchDirectory = (directory: string, isRelevant: (name: string | null) => boolean) => {
    // Not persistent: the watcher never keeps a process alive that is otherwise done.
    const watcher = watch(directory, { persistent: false }, (_event, name) => {
      if (isRelevant(name)) schedule();
    });
    watcher.on('error', (error) => {
      if (!closed) options.onError(error, lastGood);
    });
    watchers.push(watcher);
  };

  const name = basename(file);
  const target = linkTarget(file);
  // Through a link any change in its directory may be a new target (config maps swap a `..data` link).
  watchDirectory(dirname(file), (changed) => target !== undefined || changed === null || changed === name);
  if (target !== undefined && dirname(target) !== dirname(file)) {
    const targetName = basename(target);
    watchDirectory(dirname(target), (changed) => changed === null || changed === targetName);
  }

  // Without the config in use, the first read establishes it (a failure is reported, with nothing to keep).
  const ready = lastGood === undefined ? enqueue(false) : Promise.resolve();

  return {
    ready,
    check: () => enqueue(true),
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}

/** Two configs resolved from the same text and variables serialize alike (records keep file order). */
function fingerprint(config: ResolvedConfig): string {
  return JSON.stringify(config);
}

/** The file a symbolic link at `file` leads to, or undefined when `file` is not a link (or does not exist). */
function linkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : undefined;
  } catch {
    return undefined;
  }
}
