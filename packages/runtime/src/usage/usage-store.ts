import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditRecord } from '@search-mcp/server';
import type { Logger } from '@search-mcp/shared';
import { replayAuditFile } from './audit-file-replay.js';
import { HOUR_MS, HOURS_KEPT, type SearchSeries, type ToolSeries } from './usage-buckets.js';
import { type DecodedSnapshot, decodeSnapshot, encodeSnapshot } from './usage-snapshot.js';

/** What the store reads and fills. */
export interface UsageStoreTarget {
  tools(): Iterable<ToolSeries>;
  readonly searches: SearchSeries;
  /** Counts a record read back from the audit file. */
  replay(record: AuditRecord): void;
  /** Adds a snapshot's buckets. */
  merge(snapshot: DecodedSnapshot): void;
}

export interface UsageStoreOptions {
  auditFile: string;
  usageFile: string;
  saveEveryMs?: number;
  now: () => number;
  logger: Logger;
}

/**
 * Keeps the usage statistics across restarts (docs/console.md, "Usage statistics"). The snapshot says how many bytes
 * of the audit file its buckets include: the audit file's size when the statistics started, plus the JSON line of
 * every record heard since (the JSON-lines sink writes exactly `JSON.stringify(record)` and a newline). A start reads
 * the snapshot, then the audit lines after that offset: the records of a crash after the last snapshot are not lost,
 * and none is counted twice. Another file (inode: rotated) is read from its start after the snapshot; the same file
 * smaller than the offset is read alone, the snapshot dropped. Once the audit sink failed, no snapshot is written:
 * the offset would count lines the file never got.
 */
export class UsageStore {
  private readonly startSize: number;
  private readonly startInode: number | undefined;
  private liveBytes = 0;
  /** The audit offset of the last snapshot written. */
  private savedOffset: number | undefined;
  private sharedFileWarned = false;
  private sinkFailed = false;
  private auditInode: number | undefined;
  private loading: Promise<void> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly target: UsageStoreTarget,
    private readonly options: UsageStoreOptions,
  ) {
    // Synchronously, before any record is heard: what is in the file now is read back, what comes later is heard.
    const stats = statSync(options.auditFile, { throwIfNoEntry: false });
    this.startSize = stats?.size ?? 0;
    this.startInode = stats?.ino;
    this.auditInode = this.startInode;
    this.timer = setInterval(() => void this.save(), options.saveEveryMs ?? 30_000);
    this.timer.unref();
  }

  heard(record: AuditRecord): void {
    if (!this.closed) this.liveBytes += Buffer.byteLength(JSON.stringify(record)) + 1;
  }

  /**
   * The audit sink failed (full disk, removed folder): records heard from now on, and perhaps some before, are not in
   * the file, so no later offset would be true. No snapshot is written any more; the next start reads the last one
   * and the lines the file does have after it.
   */
  auditSinkFailed(): void {
    this.sinkFailed = true;
  }

  load(): Promise<void> {
    this.loading ??= this.readBack();
    return this.loading;
  }

  /** Writes the snapshot (after the start's reading; one write at a time). Failures are logged, never thrown. */
  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      await this.load();
      try {
        await this.write();
      } catch (error) {
        this.options.logger.warn('cannot write the usage statistics', {
          file: this.options.usageFile,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    });
    return this.saving;
  }

  async close(): Promise<void> {
    if (this.closed) return this.saving;
    clearInterval(this.timer);
    await this.save();
    this.closed = true;
  }

  private async readBack(): Promise<void> {
    const { logger, usageFile, auditFile, now } = this.options;
    const snapshot = await this.readSnapshot();
    let from = 0;
    if (snapshot) {
      const { offset, inode } = snapshot.audit;
      if (inode !== undefined && this.startInode !== undefined && inode !== this.startInode) {
        logger.info('the audit file was replaced since the usage snapshot; reading it from its start', { auditFile });
        // Rotated: the snapshot holds the old file's records, the new file is all new.
        this.target.merge(snapshot);
      } else if (this.startSize < offset) {
        // The same file, shorter than the snapshot says: lines it counted never reached the file (a crash before the
        // stream flushed, a failed write) or the file was cut. Which of its lines the snapshot holds is unknown, so
        // the file alone is counted: nothing twice.
        logger.info('the audit file is shorter than the usage snapshot covers; rebuilding the statistics from it', {
          auditFile,
        });
      } else {
        from = offset;
        this.target.merge(snapshot);
      }
    }
    try {
      const result = await replayAuditFile(auditFile, {
        from,
        to: this.startSize,
        since: now() - HOURS_KEPT * HOUR_MS,
        onRecord: (record) => this.target.replay(record),
      });
      if (result.badLines > 0) {
        logger.warn('skipped audit lines that are not records while reading the usage statistics', {
          auditFile,
          lines: result.badLines,
          firstLineAfterOffset: result.firstBadLine,
          usageFile,
        });
      }
    } catch (error) {
      logger.warn('cannot read the audit file for the usage statistics', {
        auditFile,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private async readSnapshot(): Promise<DecodedSnapshot | undefined> {
    const { logger, usageFile, now } = this.options;
    let text: string;
    try {
      text = await readFile(usageFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        logger.warn('cannot read the usage statistics; rebuilding them from the audit file', {
          usageFile,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return undefined;
    }
    try {
      return decodeSnapshot(JSON.parse(text), now());
    } catch (error) {
      logger.warn('the usage statistics file is damaged; rebuilding them from the audit file', {
        usageFile,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }

  /** Atomically: a temporary file (readable by the user only), then a rename over the old snapshot. */
  private async write(): Promise<void> {
    const { auditFile, usageFile, now } = this.options;
    if (this.sinkFailed) return;
    const current = await stat(auditFile).catch(() => undefined);
    // From here to the encoding, synchronously: no record may be heard between the offset and the buckets.
    const offset = this.startSize + this.liveBytes;
    // Nothing heard since the last snapshot: it is still true.
    if (offset === this.savedOffset) return;
    // More bytes than this process wrote (its own unflushed ones only make the file shorter): another process appends
    // to the same audit file (several stdio clients with one config). This process's buckets then say nothing exact
    // about an offset, so it writes no snapshot: the next start reads the audit file from the last true one.
    // The file this process appends to: the one at start, or (created since: the first start) the first one seen.
    if (this.auditInode === undefined && current !== undefined) this.auditInode = current.ino;
    const sameFile = current !== undefined && current.ino === this.auditInode;
    if (sameFile && current.size > offset) {
      if (!this.sharedFileWarned) {
        this.sharedFileWarned = true;
        this.options.logger.warn(
          'another process writes the audit file too; this one keeps no usage snapshot (the next start reads the audit file instead)',
          { auditFile },
        );
      }
      return;
    }
    // Rotated since (another file at the path): the offset is the old file's, and so is the inode written.
    const inode = this.auditInode;
    const snapshot = encodeSnapshot(
      this.target.tools(),
      this.target.searches,
      { offset, ...(inode !== undefined ? { inode } : {}) },
      now(),
    );
    await mkdir(dirname(usageFile), { recursive: true });
    const temporary = `${usageFile}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(snapshot), { mode: 0o600 });
      await rename(temporary, usageFile);
      this.savedOffset = offset;
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
