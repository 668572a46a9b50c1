import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { inlinedWorkspacePackages } from './bundle-contents.js';
import { publishedPackages, readManifest, repositoryRoot, workspacePackages } from './workspace.js';

const run = promisify(execFile);
const changesetDirectory = join(repositoryRoot, '.changeset');
const config = JSON.parse(readFileSync(join(changesetDirectory, 'config.json'), 'utf8')) as {
  changelog: unknown;
  ignore?: string[];
  privatePackages?: { version?: boolean; tag?: boolean };
};
const changesetCli = join(dirname(createRequire(import.meta.url).resolve('@changesets/cli/package.json')), 'bin.js');
const scratch: string[] = [];

afterAll(() => {
  for (const directory of scratch) rmSync(directory, { recursive: true, force: true });
});

/** The package names in a changeset's front matter (`'@scope/name': minor`). */
function packagesNamedIn(file: string): string[] {
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return [...frontMatter.matchAll(/^\s*['"]?([^'":\s]+)['"]?\s*:\s*(?:patch|minor|major)\s*$/gm)].map(
    (match) => match[1] ?? '',
  );
}

describe('changesets', () => {
  it('version every published package, apps included, and leave private ones alone', () => {
    expect(config.changelog).toBe('@changesets/cli/changelog');
    const published = publishedPackages().map((entry) => entry.name);
    expect((config.ignore ?? []).filter((name) => published.includes(name))).toEqual([]);
    expect(config.privatePackages).toEqual({ version: false, tag: false });
  });

  it.each([
    ['@search-mcp/cli', ['@search-mcp/runtime', '@search-mcp/catalog']],
    ['@search-mcp/http', ['@search-mcp/runtime', '@search-mcp/catalog']],
    ['@search-mcp/web-search-server', ['@search-mcp/openai', '@search-mcp/shared']],
  ])(
    'release %s whenever they release a library its bundle inlines (its README, "How it is built")',
    (app, expectedInlined) => {
      // The bundle's inputs, from esbuild's metafile: the workspace packages whose code the app carries.
      const bundled = workspacePackages().find((entry) => entry.name === app);
      expect(bundled).toBeDefined();
      const inlined = bundled ? inlinedWorkspacePackages(bundled, workspacePackages()) : [];
      expect(inlined).toEqual(expect.arrayContaining(expectedInlined));
      const pending = readdirSync(changesetDirectory).filter((file) => file.endsWith('.md') && file !== 'README.md');
      const named = new Set(pending.flatMap((file) => packagesNamedIn(join(changesetDirectory, file))));
      const released = inlined.filter((name) => named.has(name));
      if (released.length > 0) expect(named.has(app), `releases ${released.join(', ')}`).toBe(true);
    },
  );

  it('turn the pending changesets into CHANGELOG.md files (`changeset version` on a copy of the repository)', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'search-mcp-changesets-'));
    scratch.push(copy);
    for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(repositoryRoot, file), join(copy, file));
    cpSync(changesetDirectory, join(copy, '.changeset'), { recursive: true });
    for (const entry of workspacePackages()) {
      mkdirSync(join(copy, entry.relativeDirectory), { recursive: true });
      cpSync(join(entry.directory, 'package.json'), join(copy, entry.relativeDirectory, 'package.json'));
    }
    // The changelog generator is resolved from the copy: give it the repository's installed packages.
    symlinkSync(join(repositoryRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');

    const pending = readdirSync(changesetDirectory).filter((file) => file.endsWith('.md') && file !== 'README.md');
    const named = new Set(pending.flatMap((file) => packagesNamedIn(join(changesetDirectory, file))));
    try {
      await run(process.execPath, [changesetCli, 'version'], {
        cwd: copy,
        env: { ...process.env, CI: 'true', NO_COLOR: '1' },
      });
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`changeset version failed:\n${stdout}${stderr}`);
    }

    expect(named.size).toBeGreaterThan(0);
    for (const entry of workspacePackages().filter((item) => named.has(item.name))) {
      const changelog = join(copy, entry.relativeDirectory, 'CHANGELOG.md');
      expect(existsSync(changelog), `${entry.name} has a CHANGELOG.md`).toBe(true);
      expect(readFileSync(changelog, 'utf8').startsWith(`# ${entry.name}\n`)).toBe(true);
      expect(readManifest(join(copy, entry.relativeDirectory)).version).not.toBe(entry.manifest.version);
    }
    // Every changeset was consumed: none names a package the workspace does not have.
    expect(
      readdirSync(join(copy, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md'),
    ).toEqual([]);
  });
});
