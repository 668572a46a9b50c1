import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fields of a package.json the packaging checks read. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string } | string;
  engines?: Record<string, string>;
  files?: string[];
  bin?: Record<string, string> | string;
  main?: string;
  types?: string;
  exports?: unknown;
  publishConfig?: Record<string, unknown>;
  packageManager?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface WorkspacePackage {
  name: string;
  /** Absolute path of the package's folder. */
  directory: string;
  /** The folder relative to the repository root, e.g. `packages/shared`. */
  relativeDirectory: string;
  manifest: PackageManifest;
}

/** The repository root: two levels above this package (`tests/packaging`). */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function readManifest(directory: string): PackageManifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackageManifest;
}

/** The entries of `pnpm-workspace.yaml` (the `dir/*` globs and plain folders this repository uses). */
function workspaceGlobs(): string[] {
  const text = readFileSync(join(repositoryRoot, 'pnpm-workspace.yaml'), 'utf8');
  const section = /^packages:\s*\n((?:\s+-.*\n?)+)/m.exec(text);
  if (!section?.[1]) throw new Error('pnpm-workspace.yaml has no packages list');
  return [...section[1].matchAll(/-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].map((match) => match[1] ?? '');
}

/** Every package of the workspace, from `pnpm-workspace.yaml`. */
export function workspacePackages(): WorkspacePackage[] {
  const packages: WorkspacePackage[] = [];
  for (const glob of workspaceGlobs()) {
    if (!glob.endsWith('/*')) {
      // A plain folder (`bench`): one package.
      if (/[*?{[]/.test(glob)) throw new Error(`unsupported workspace glob ${glob}: extend workspace.ts`);
      const directory = join(repositoryRoot, glob);
      if (!existsSync(join(directory, 'package.json'))) continue;
      const manifest = readManifest(directory);
      packages.push({ name: manifest.name, directory, relativeDirectory: glob, manifest });
      continue;
    }
    const parent = glob.slice(0, -2);
    const parentDirectory = join(repositoryRoot, parent);
    if (!existsSync(parentDirectory)) continue;
    for (const entry of readdirSync(parentDirectory, { withFileTypes: true })) {
      const directory = join(parentDirectory, entry.name);
      if (!entry.isDirectory() || !existsSync(join(directory, 'package.json'))) continue;
      const manifest = readManifest(directory);
      packages.push({ name: manifest.name, directory, relativeDirectory: `${parent}/${entry.name}`, manifest });
    }
  }
  return packages.sort((a, b) => a.name.localeCompare(b.name));
}

/** The packages that go to the registry: every workspace package that is not private. */
export function publishedPackages(): WorkspacePackage[] {
  return workspacePackages().filter((entry) => entry.manifest.private !== true);
}

/** The bins of a manifest as `{ name: path }`. */
export function binsOf(manifest: PackageManifest): Record<string, string> {
  if (manifest.bin === undefined) return {};
  if (typeof manifest.bin === 'string') return { [manifest.name.replace(/^@[^/]+\//, '')]: manifest.bin };
  return manifest.bin;
}

/**
 * The pnpm the repository pins (`packageManager` of the root package.json): the one running these tests when it is
 * that version (its `npm_execpath`, run by this node: npx would load npm to find it, about 2 s of CPU), else through
 * npx, as the README runs it.
 */
export function pnpmCommand(environment: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } {
  const pinned = readManifest(repositoryRoot).packageManager;
  if (!pinned?.startsWith('pnpm@')) throw new Error('the root package.json does not pin pnpm in packageManager');
  const running = environment.npm_execpath;
  // The user agent of a script run by pnpm: `pnpm/10.34.9 npm/? node/v20.20.2 linux x64`. Under `npx pnpm exec`,
  // `npm_execpath` is still npx's npm, with pnpm's user agent.
  const pinnedAgent = `${pinned.replace('@', '/')} `;
  if (
    running !== undefined &&
    /pnpm\.c?js$/.test(running) &&
    environment.npm_config_user_agent?.startsWith(pinnedAgent)
  ) {
    return { command: process.execPath, args: [running] };
  }
  return { command: 'npx', args: ['-y', pinned] };
}
