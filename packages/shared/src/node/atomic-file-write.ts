/**
 * Writing files so a reader (a client, the config watcher) never sees half a file and a crash never leaves one:
 * the content goes to a temporary file beside the target, then a rename puts it in place. Backups are written the
 * same way, under a name no earlier backup has.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits of the file; default 0o600 (a config may hold tokens). */
  mode?: number;
  /** `false`: fail with `EEXIST` instead of replacing an existing file. Default `true`. */
  replace?: boolean;
}

/** Writes `content` to `path` through a temporary file and a rename; creates missing parent directories. */
export async function writeFileAtomically(
  path: string,
  content: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = options.mode ?? 0o600;
  await writeFile(temporary, content, { encoding: 'utf8', mode, flag: 'wx' });
  try {
    // The mode given to writeFile passes through the umask; the file must have exactly these bits.
    await chmod(temporary, mode);
    if (options.replace === false) await placeWithoutReplacing(temporary, path);
    else await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Copies `content` (the file's current text) to `<path>.<YYYYMMDD-HHMMSS>.bak` (UTC; `-2`, `-3`… when that name is
 * taken), atomically and without replacing an earlier backup. Returns the backup's path.
 */
export async function writeBackup(path: string, content: string, mode: number, now = new Date()): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/-|:/g, '')
    .replace('T', '-');
  for (let attempt = 1; ; attempt += 1) {
    const backupPath = `${path}.${stamp}${attempt === 1 ? '' : `-${attempt}`}.bak`;
    try {
      await writeFileAtomically(backupPath, content, { mode, replace: false });
      return backupPath;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
  }
}

/** The permission bits of an existing file, or undefined when there is none. */
export async function fileMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Puts `temporary` at `path` only if nothing is there: a hard link fails with `EEXIST` atomically. Where the file
 * system has no hard links, a check and a rename (racy, but only against another writer at the same moment).
 */
async function placeWithoutReplacing(temporary: string, path: string): Promise<void> {
  try {
    await link(temporary, path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    if ((await fileMode(path)) !== undefined) throw Object.assign(new Error(`EEXIST: ${path}`), { code: 'EEXIST' });
    await rename(temporary, path);
    return;
  }
  await unlink(temporary);
}
