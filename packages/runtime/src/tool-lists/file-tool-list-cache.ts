/**
 * Each server's last tool list in `<state folder>/tool-lists.json` (README, "Discovery before the servers are up"),
 * shared by every CLI command and both apps. Read once at start; written atomically (a temporary file renamed over
 * it, mode 0600, folder 0700), each write re-reading the file first under a lock file beside it, so the lists
 * another process wrote are kept (the pin file's pattern, docs/trust.md). A file that cannot be trusted (does not
 * parse, a digest does not match) is ignored with one warning and written afresh.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ToolListCache } from '@search-mcp/client-manager';
import { errorMessage, type Logger, silentLogger, type ToolDefinition } from '@search-mcp/shared';
import { readTextIfExists, readTextIfExistsSync, stateDirectory, writeFileAtomically } from '@search-mcp/shared/node';
import { type PinFileLockOptions, withPinFileLock } from '../trust/pin-file-lock.js';
import {
  emptyToolListFile,
  parseToolListFile,
  serializeToolListFile,
  type ToolListEntry,
  type ToolListFile,
  toolListEntry,
} from './tool-list-file.js';

export const TOOL_LIST_FILE_NAME = 'tool-lists.json';

const dayMs = 24 * 60 * 60 * 1000;

export interface FileToolListCacheOptions {
  /** Default `<state folder>/tool-lists.json` (`stateDirectory(env)`). */
  path?: string;
  /** For the state folder; default `process.env`. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** The lock around each write (the pin file's defaults). */
  lock?: PinFileLockOptions;
  /**
   * A list last confirmed longer ago is not used (default 7 days, docs/first-session.md): the server is started and
   * waited for instead, so `search-mcp search` never shows an old list indefinitely.
   */
  maxAgeMs?: number;
}

export class FileToolListCache implements ToolListCache {
  readonly path: string;
  private data: ToolListFile;
  private readonly logger: Logger;
  private readonly lockOptions: PinFileLockOptions;
  private readonly maxAgeMs: number;
  private queue: Promise<unknown> = Promise.resolve();
  /** One warning per process for a file that cannot be trusted. */
  private warned = false;

  /** Reads the file now; a missing file keeps nothing yet, an untrusted one is ignored and written afresh. */
  constructor(options: FileToolListCacheOptions = {}) {
    this.path = options.path ?? join(stateDirectory(options.env ?? process.env), TOOL_LIST_FILE_NAME);
    this.logger = options.logger ?? silentLogger;
    this.lockOptions = options.lock ?? {};
    this.maxAgeMs = options.maxAgeMs ?? 7 * dayMs;
    this.data = this.trusted(readTextSync(this.path, this.logger));
    if (this.warned) this.update(() => {});
  }

  read(serverId: string, identity: string): readonly ToolDefinition[] | undefined {
    const entry = this.data.servers[serverId];
    if (entry === undefined || entry.identity !== identity) return undefined;
    return ageMs(entry.savedAt) <= this.maxAgeMs ? entry.tools : undefined;
  }

  /**
   * Keeps the server's list. The same list as kept (a `tools/list_changed` that changed nothing, each start) is not
   * written again, unless it was last confirmed over a day ago: its `savedAt` says how recent it is (`maxAgeMs`).
   */
  write(serverId: string, identity: string, tools: readonly ToolDefinition[]): void {
    const entry = toolListEntry(identity, tools, new Date());
    if (isFreshCopy(this.data.servers[serverId], entry)) return;
    this.data.servers[serverId] = entry;
    this.update((file) => {
      // Another process may have written the same list meanwhile: the file is then left as it is.
      if (!isFreshCopy(file.servers[serverId], entry)) file.servers[serverId] = entry;
    });
  }

  /** Resolves once every write queued so far is on disk (a short-lived command awaits it before it exits). */
  async flush(): Promise<void> {
    // A write queued while an earlier one was being awaited is waited for too.
    let current: Promise<unknown>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  /** The file's lists, or none (with the one warning) when it cannot be trusted. */
  private trusted(text: string | undefined): ToolListFile {
    if (text === undefined) return emptyToolListFile();
    try {
      return parseToolListFile(text);
    } catch (error) {
      if (!this.warned) {
        this.warned = true;
        this.logger.warn('ignoring the kept tool lists: the file cannot be trusted; it is written afresh', {
          file: this.path,
          error: errorMessage(error),
        });
      }
      return emptyToolListFile();
    }
  }

  /** Re-reads the file, applies `change`, writes it back: one at a time here, and under the lock across processes. */
  private update(change: (file: ToolListFile) => void): void {
    const task = async () => {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await withPinFileLock(
        this.path,
        async () => {
          const before = await readTextIfExists(this.path);
          const file = this.trusted(before);
          change(file);
          const text = serializeToolListFile(file);
          if (text !== before) await writeFileAtomically(this.path, text, { mode: 0o600 });
        },
        this.lockOptions,
      );
    };
    this.queue = this.queue
      .then(task)
      .catch((error: unknown) =>
        this.logger.warn('cannot write the kept tool lists', { file: this.path, error: errorMessage(error) }),
      );
  }
}

/** Whether `kept` holds the same list as `entry` (same identity and tools: the digest covers both), confirmed within a day. */
function isFreshCopy(kept: ToolListEntry | undefined, entry: ToolListEntry): boolean {
  return kept !== undefined && kept.digest === entry.digest && ageMs(kept.savedAt) < dayMs;
}

/** How long ago `savedAt` was; an unreadable date is too old. */
function ageMs(savedAt: string): number {
  const time = Date.parse(savedAt);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : Date.now() - time;
}

function readTextSync(path: string, logger: Logger): string | undefined {
  try {
    return readTextIfExistsSync(path);
  } catch (error) {
    logger.warn('cannot read the kept tool lists', { file: path, error: errorMessage(error) });
    return undefined;
  }
}
