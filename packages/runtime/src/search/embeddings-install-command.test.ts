import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddingsInstallCommand } from './embeddings-install-command.js';

const root = mkdtempSync(join(tmpdir(), 'embeddings-install-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A runtime file as npm installs it under `folder`. */
const installedRuntime = (folder: string) => join(folder, 'node_modules', '@search-mcp', 'runtime', 'dist', 'index.js');

describe('embeddingsInstallCommand', () => {
  it("names the tarball the README's install packed beside the install folder", () => {
    const folder = join(root, 'search-mcp');
    mkdirSync(join(folder, 'packs'), { recursive: true });
    writeFileSync(join(folder, 'packs', 'search-mcp-cli-0.1.0.tgz'), '');
    writeFileSync(join(folder, 'packs', 'search-mcp-embeddings-0.1.0.tgz'), '');
    expect(embeddingsInstallCommand({ runtimeFile: installedRuntime(folder) })).toBe(
      `npm install --prefix ${folder} --no-audit --no-fund ${join(folder, 'packs', 'search-mcp-embeddings-0.1.0.tgz')}`,
    );
  });

  it('names the registry package for an install folder without packs', () => {
    const folder = join(root, 'plain');
    expect(embeddingsInstallCommand({ runtimeFile: installedRuntime(folder) })).toBe(
      `npm install --prefix ${folder} --no-audit --no-fund @search-mcp/embeddings`,
    );
  });

  it('quotes a folder with a space', () => {
    const folder = join(root, 'my tools');
    expect(embeddingsInstallCommand({ runtimeFile: installedRuntime(folder) })).toContain(`--prefix "${folder}"`);
  });

  it("installs globally when the runtime is in npm's global folder", () => {
    const prefix = join(root, 'global');
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    expect(embeddingsInstallCommand({ runtimeFile: installedRuntime(join(prefix, 'lib')) })).toBe(
      'npm install --global @search-mcp/embeddings',
    );
  });

  it('tells a clone to install and build (the workspace has the package)', () => {
    expect(
      embeddingsInstallCommand({ runtimeFile: join(root, 'clone', 'packages', 'runtime', 'dist', 'index.js') }),
    ).toBe('npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 build (in the clone Search MCP runs from)');
  });
});
