import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { OAuthStore } from './oauth-store.js';

/**
 * An `OAuthStore` in one JSON file, readable by its owner only (0600, in a 0700 folder). Every read goes to the file,
 * so a `search-mcp auth` in another process is seen by a running `serve` on its next attempt; writes are queued and
 * replace the file atomically (a write to a temporary file, then a rename), so a crash never leaves half a file.
 * Writes are queued per file, not per store: two stores over one file in a process (two managers) keep each other's
 * keys.
 */
export function createFileOAuthStore(path: string): OAuthStore {
  const file = resolve(path);
  const readAll = async (): Promise<Record<string, string>> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, string>;
    } catch {
      // Fall through: the file is not ours to overwrite silently.
    }
    throw new Error(`the OAuth credentials file ${path} is not a JSON object; move it away to start afresh`);
  };
  const update = (change: (all: Record<string, string>) => void): Promise<void> => {
    const next = (writeQueues.get(file) ?? Promise.resolve()).then(async () => {
      const all = await readAll();
      change(all);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
        await chmod(temporary, 0o600);
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    });
    const settled = next.catch(() => {});
    writeQueues.set(file, settled);
    // The queue of a file nobody writes any more is dropped (a long-lived host may open many).
    void settled.then(() => {
      if (writeQueues.get(file) === settled) writeQueues.delete(file);
    });
    return next;
  };
  return {
    description: path,
    get: async (key) => {
      await writeQueues.get(file);
      const value = (await readAll())[key];
      return typeof value === 'string' ? value : undefined;
    },
    set: (key, value) =>
      update((all) => {
        all[key] = value;
      }),
    delete: (key) =>
      update((all) => {
        delete all[key];
      }),
  };
}

/** The write in progress of each file (by absolute path), which the next write of that file waits for. */
const writeQueues = new Map<string, Promise<void>>();
