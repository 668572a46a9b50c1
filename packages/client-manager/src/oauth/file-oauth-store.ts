import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthStore } from './oauth-store.js';

/**
 * An `OAuthStore` in one JSON file, readable by its owner only (0600, in a 0700 folder). Every read goes to the file,
 * so a `search-mcp auth` in another process is seen by a running `serve` on its next attempt; writes are queued and
 * replace the file atomically (a write to a temporary file, then a rename), so a crash never leaves half a file.
 */
export function createFileOAuthStore(path: string): OAuthStore {
  let queue: Promise<unknown> = Promise.resolve();
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
    const next = queue.then(async () => {
      const all = await readAll();
      change(all);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, path);
    });
    queue = next.catch(() => {});
    return next;
  };
  return {
    description: path,
    get: async (key) => {
      await queue;
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
