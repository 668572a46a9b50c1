/**
 * The names of the secrets `search-mcp secret set` stored (docs/trust.md, "Secrets in the OS keyring"). Not every
 * keyring can list its entries (the Secret Service can, the kernel keyring and Windows cannot by service), so
 * `secret list` reads this file in the state folder: names only, never values.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../text/is-record.js';
import { writeFileAtomically } from './atomic-file-write.js';
import { stateDirectory } from './state-directory.js';

export const KEYRING_SECRET_INDEX_FILE = 'keyring-secrets.json';

export class KeyringSecretIndex {
  readonly file: string;

  constructor(private readonly directory: string = stateDirectory()) {
    this.file = join(directory, KEYRING_SECRET_INDEX_FILE);
  }

  /** The names, sorted; none when the file does not exist yet. */
  async names(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    const names = isRecord(parsed) && Array.isArray(parsed['names']) ? parsed['names'] : [];
    return names.filter((name): name is string => typeof name === 'string').sort();
  }

  async add(name: string): Promise<void> {
    const names = new Set(await this.names());
    if (names.has(name)) return;
    names.add(name);
    await this.write([...names]);
  }

  async remove(name: string): Promise<void> {
    const names = await this.names();
    if (!names.includes(name)) return;
    await this.write(names.filter((other) => other !== name));
  }

  private async write(names: string[]): Promise<void> {
    // The state folder is private (mode 0700) like everything Search MCP learns at run time.
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await writeFileAtomically(this.file, `${JSON.stringify({ names: names.sort() }, null, 2)}\n`);
  }
}
