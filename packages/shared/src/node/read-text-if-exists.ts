import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** The UTF-8 text of `path`, or undefined when there is no such file; any other failure is thrown. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** `readTextIfExists`, synchronously (for a store read once when it opens). */
export function readTextIfExistsSync(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}
