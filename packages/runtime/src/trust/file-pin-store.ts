/**
 * The pins in `<state folder>/pins.json` (docs/trust.md, "Pinning and quarantine"), shared by every CLI command and
 * both apps. Read once at start; written atomically (a temporary file renamed over it, mode 0600, folder 0700), each
 * write re-reading the file first, under a lock file beside it, so changes made by another process are kept. A change made by another process
 * (`search-mcp approve` while the HTTP app runs) takes effect without a restart: the file's mtime is polled
 * (`fs.watchFile`, every `pollIntervalMs`) and a changed file is read again.
 */
import { type Stats, unwatchFile, watchFile } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ApproveOptions, PinObservation, ServerPins, ToolPinStore } from '@search-mcp/catalog';
import { type Logger, silentLogger } from '@search-mcp/shared';
import { readTextIfExists, readTextIfExistsSync, stateDirectory, writeFileAtomically } from '@search-mcp/shared/node';
import {
  applyObservation,
  approvePending,
  emptyPinFile,
  type PinFile,
  parsePinFile,
  serializePinFile,
  serverPins,
} from './pin-file.js';
import { type PinFileLockOptions, withPinFileLock } from './pin-file-lock.js';

export interface FilePinStoreOptions {
  /** Default `<state folder>/pins.json` (`stateDirectory(env)`). */
  path?: string;
  /** For the state folder; default `process.env`. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** How often the file's mtime is checked while someone listens; default 250 ms. */
  pollIntervalMs?: number;
  /** The lock around each change of the file (stale after 5 s, waited for at most 10 s by default). */
  lock?: PinFileLockOptions;
}

export const PIN_FILE_NAME = 'pins.json';

/** The default path of the pin file. */
export function defaultPinFilePath(env: Record<string, string | undefined> = process.env): string {
  return join(stateDirectory(env), PIN_FILE_NAME);
}

export class FilePinStore implements ToolPinStore {
  readonly path: string;
  private data: PinFile;
  /** The text last read or written: a poll that finds it again is our own write. */
  private lastText: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  private readonly logger: Logger;
  private readonly pollIntervalMs: number;
  private readonly lockOptions: PinFileLockOptions;
  private watching = false;
  private readonly unwritten: Array<[string, PinObservation]> = [];

  /** Reads the file now (a missing file: nothing pinned yet). Throws when it exists but is not a pin file. */
  constructor(options: FilePinStoreOptions = {}) {
    this.path = options.path ?? defaultPinFilePath(options.env);
    this.logger = options.logger ?? silentLogger;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.lockOptions = options.lock ?? {};
    const text = readTextIfExistsSync(this.path);
    this.data = text === undefined ? emptyPinFile() : parseOrExplain(text, this.path);
    this.lastText = text;
  }

  server(serverId: string): ServerPins | undefined {
    return serverPins(this.data, serverId);
  }

  /** Every server's pins and what waits, as last read. */
  servers(): Readonly<Record<string, ServerPins>> {
    return this.data.servers;
  }

  observe(serverId: string, observation: PinObservation): void {
    applyObservation(this.data, serverId, observation);
    // One write for all the servers of a listing: the observations wait until the queued write runs.
    this.unwritten.push([serverId, observation]);
    if (this.unwritten.length > 1) return;
    this.update((file) => {
      for (const [id, pending] of this.unwritten.splice(0)) applyObservation(file, id, pending);
    }).catch((error: unknown) =>
      this.logger.error('cannot write the pin file; pins are kept in memory only', {
        file: this.path,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  async approve(serverId: string, toolName?: string, options: ApproveOptions = {}): Promise<string[]> {
    let approved: string[] = [];
    await this.update((file) => {
      // Checked against the file as re-read under the write queue: what is pinned is what was shown.
      approved = approvePending(file, serverId, toolName, new Date(), options.expected);
    });
    if (approved.length > 0) this.notify();
    return approved;
  }

  /** Reads the file again now (what a poll does); resolves once listeners were told of a change. */
  reload(): Promise<void> {
    return this.enqueue(async () => {
      const text = await readTextIfExists(this.path);
      if (text === this.lastText) return;
      this.data = this.withUnwritten(text === undefined ? emptyPinFile() : parseOrExplain(text, this.path));
      this.lastText = text;
      this.notify();
    });
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.watching) {
      this.watching = true;
      // Polled, not `fs.watch`: the file is replaced by a rename and may not exist yet; a stat per interval is cheap.
      watchFile(this.path, { interval: this.pollIntervalMs, persistent: false }, this.onPoll);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  /** Resolves once every write queued so far is on disk (a short-lived command awaits it before it exits). */
  async flush(): Promise<void> {
    await this.queue;
  }

  /** Stops polling the file. */
  close(): void {
    if (!this.watching) return;
    this.watching = false;
    unwatchFile(this.path, this.onPoll);
  }

  private readonly onPoll = (current: Stats, previous: Stats): void => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    this.reload().catch((error: unknown) =>
      this.logger.error('cannot read the pin file; the pins read before stay in use', {
        file: this.path,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  };

  /**
   * Re-reads the file, applies `change`, writes it back: one at a time in this process (the queue) and across
   * processes (the lock file beside it), so no change is lost.
   */
  private update(change: (file: PinFile) => void): Promise<void> {
    return this.enqueue(async () => {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const { before, file, text } = await withPinFileLock(
        this.path,
        async () => {
          const before = await readTextIfExists(this.path);
          const file = before === undefined ? emptyPinFile() : parseOrExplain(before, this.path);
          change(file);
          const text = serializePinFile(file);
          if (text !== before) await writeFileAtomically(this.path, text, { mode: 0o600 });
          return { before, file, text };
        },
        this.lockOptions,
      );
      const changedElsewhere = before !== this.lastText;
      this.data = this.withUnwritten(file);
      this.lastText = text;
      if (changedElsewhere) this.notify();
    });
  }

  /** What was read or written, plus the observations still waiting for their write: what the catalog must see. */
  private withUnwritten(file: PinFile): PinFile {
    for (const [serverId, observation] of this.unwritten) applyObservation(file, serverId, observation);
    return file;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function parseOrExplain(text: string, path: string): PinFile {
  try {
    return parsePinFile(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot read the pin file ${path}: ${reason}. Fix it, or delete it to pin every tool afresh.`);
  }
}
