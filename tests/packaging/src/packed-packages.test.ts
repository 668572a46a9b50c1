import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { installedPackageOf } from '../../../tooling/third-party-notices.js';
import { foreignCodeIn, importsOfBuild, isNodeBuiltin, listFiles, packageNameOf } from './bundle-contents.js';
import {
  type DeclaredAs,
  declaredAs,
  expectedDeclaration,
  sdkGenerationTwo,
  sdkPackages,
  sharedPackages,
} from './shared-packages.js';
import {
  binsOf,
  type PackageManifest,
  publishedPackages,
  readManifest,
  repositoryRoot,
  workspacePackages,
} from './workspace.js';

const { packages } = inject('packResult');
const workspace = workspacePackages();
const dependencyFields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const;

/** The paths an `exports` map points at (every condition, every subpath). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

const normalise = (path: string) => path.replace(/^\.\//, '');

/**
 * The apps published as one bundle (the apps' READMEs, "How it is built"): the CLI, search-mcp-http and
 * search-mcp-web-search inline the libraries and their dependencies to start faster. Every other package ships its
 * own code only.
 */
const bundledApps = new Set(['@search-mcp/cli', '@search-mcp/http', '@search-mcp/web-search-server']);

describe('every published package', () => {
  it('is packed: the workspace has published packages and pnpm packed each', () => {
    expect(packages.map((entry) => entry.name)).toEqual(publishedPackages().map((entry) => entry.name));
    expect(packages.length).toBeGreaterThanOrEqual(7);
  });

  it('is a workspace devDependency of these tests, so turbo builds it before they pack it', () => {
    const ours = readManifest(join(repositoryRoot, 'tests', 'packaging')).devDependencies ?? {};
    expect(packages.filter((entry) => ours[entry.name] !== 'workspace:*').map((entry) => entry.name)).toEqual([]);
  });
});

describe('@search-mcp/http as packed', () => {
  it('ships the web console it serves at /ui (docs/console.md), built files only', () => {
    const packed = packages.find((entry) => entry.name === '@search-mcp/http');
    expect(packed).toBeDefined();
    const files = listFiles(join(packed?.unpacked ?? '', 'package'));
    expect(files).toContain('dist/console/index.html');
    expect(files.some((file) => /^dist\/console\/assets\/.+\.js$/.test(file))).toBe(true);
    expect(files.filter((file) => file.startsWith('dist/console/') && file.endsWith('.map'))).toEqual([]);
  });
});

describe.each(packages)('$name as packed', (packed) => {
  const root = join(packed.unpacked, 'package');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageManifest;
  const files = listFiles(root);

  it('has the metadata a registry page and an installer need', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(manifest.engines?.node).toMatch(/^>=20/);
    expect(manifest.files).toContain('dist');
    expect(manifest.publishConfig?.access).toBe('public');
    expect(manifest.repository).toMatchObject({ type: 'git', directory: packed.relativeDirectory });
    expect(typeof manifest.repository === 'object' && manifest.repository.url).toMatch(/^git\+https:\/\/.+\.git$/);
  });

  it('ships LICENSE, README and its build, and no sources or tests', () => {
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(files.some((file) => file.startsWith('dist/'))).toBe(true);
    expect(files.filter((file) => file.startsWith('src/') || /\.test\.[cm]?[jt]s$/.test(file))).toEqual([]);
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('points main, types, exports and bin at files it contains', () => {
    const targets = [
      manifest.main,
      manifest.types,
      ...exportTargets(manifest.exports),
      ...Object.values(binsOf(manifest)),
    ]
      .filter((target): target is string => target !== undefined)
      .map(normalise);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !files.includes(target))).toEqual([]);
    for (const bin of Object.values(binsOf(manifest))) {
      expect(readFileSync(join(root, bin), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    }
  });

  it('depends on other workspace packages by real version ranges, never workspace:', () => {
    for (const field of dependencyFields) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        expect(range, `${field}.${name}`).not.toMatch(/^workspace:/);
        const target = workspace.find((entry) => entry.name === name);
        if (!target || field === 'devDependencies') continue;
        // A release installs what the range names: it must be this workspace's version of the package …
        expect([`^${target.manifest.version}`, `~${target.manifest.version}`, target.manifest.version]).toContain(
          range,
        );
        // … and that package must be published too.
        expect(target.manifest.private, `${name} is private but ${packed.name} depends on it`).not.toBe(true);
      }
    }
  });

  it(
    bundledApps.has(packed.name)
      ? 'is one bundle that names the licence of every third-party package it inlines'
      : 'contains no code of another package (nothing inlined by the bundler)',
    () => {
      const built = files.filter((file) => file.startsWith('dist/') && /\.[cm]?js$/.test(file));
      expect(built.length).toBeGreaterThan(0);
      // The source map is one of the two witnesses foreignCodeIn uses: a bundle that names a map must ship it. (A file
      // copied into dist as it is, like a script spawned at run time, names none and is checked by its markers.)
      const missingMaps = built.flatMap((file) => {
        const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(root, file), 'utf8'))?.[1];
        const mapFile = named === undefined ? undefined : join(dirname(file), named).split(sep).join('/');
        return mapFile !== undefined && !files.includes(mapFile) ? [`${file} → ${mapFile}`] : [];
      });
      expect(missingMaps).toEqual([]);
      const foreign = built.flatMap((file) => foreignCodeIn(root, file));
      if (!bundledApps.has(packed.name)) {
        expect(foreign).toEqual([]);
        return;
      }
      // A bundle inlines other packages on purpose; every third-party one must have its notice in the tarball. Read
      // from the `// path` markers, which name the installed files esbuild read (a map's sources may go further back,
      // to the files an SDK package was itself built from).
      const inlined = new Set(
        foreign.flatMap(({ file, origin }) => (file.endsWith('.map') ? [] : (installedPackageOf(origin)?.name ?? []))),
      );
      expect(inlined.size).toBeGreaterThan(0);
      const notices = readFileSync(join(root, 'dist', 'THIRD-PARTY-NOTICES.md'), 'utf8');
      const named = new Set([...notices.matchAll(/^## (\S+) /gm)].map((match) => match[1]));
      expect([...inlined].filter((name) => !named.has(name))).toEqual([]);
    },
  );

  it('declares every package its code and its types import', async () => {
    const declared = new Set([
      packed.name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    ]);
    const undeclared = (await importsOfBuild(root, files))
      .filter(({ specifier }) => !isNodeBuiltin(specifier) && !declared.has(packageNameOf(specifier)))
      .map(({ file, specifier }) => `${file} imports ${specifier}`);
    expect(undeclared).toEqual([]);
  });

  it('declares each MCP SDK package as its build uses it: peer if its types expose it, else dependency, else not', async () => {
    const imports = { types: new Set<string>(), code: new Set<string>() };
    for (const { specifier, kind } of await importsOfBuild(root, files)) imports[kind].add(packageNameOf(specifier));
    const wrong: string[] = [];
    for (const name of sdkPackages) {
      const expected = expectedDeclaration(name, imports);
      const actual = declaredAs(manifest, name);
      if (actual !== expected) wrong.push(mismatch(name, actual, expected));
    }
    expect(wrong).toEqual([]);
  });
});

const declaredWords: Record<DeclaredAs, string> = {
  peer: 'a peer dependency',
  dependency: 'a dependency',
  both: 'both a dependency and a peer',
  undeclared: 'not declared',
};
const becauseWords: Record<DeclaredAs, string> = {
  peer: 'its .d.ts exposes it',
  dependency: 'only its JavaScript imports it',
  both: 'never',
  undeclared: 'its build does not import it',
};
const mismatch = (name: string, actual: DeclaredAs, expected: DeclaredAs) =>
  `${name} is ${declaredWords[actual]}; should be ${declaredWords[expected]}: ${becauseWords[expected]}`;

/** A package without bins is a library: hosts import it, so the types it exposes must be the host's own. */
const libraries = packages.filter(
  (packed) => Object.keys(binsOf(readManifest(join(packed.unpacked, 'package')))).length === 0,
);

describe.each(libraries)('$name as a library', (packed) => {
  const manifest = readManifest(join(packed.unpacked, 'package'));

  it('takes zod as a peer dependency, and mirrors every peer in devDependencies', () => {
    // zod stays a peer wherever a library uses it (its schemas meet the host's and the SDK's: one zod per install);
    // the SDK packages follow what the build exposes (the test above).
    expect(manifest.dependencies?.zod, 'zod belongs in peerDependencies').toBeUndefined();
    // A peer is also a devDependency, so the package builds and tests on its own in the workspace.
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
      expect(manifest.devDependencies?.[name], `devDependencies.${name}`).toBe(range);
    }
  });
});

describe('the repository', () => {
  it('names one version range for each SDK package and for zod in every package.json, one for all 2.x packages', () => {
    const ranges = new Map<string, Set<string>>();
    const manifests = [{ name: '(root)', manifest: readManifest(repositoryRoot) }, ...workspace];
    for (const { name, manifest } of manifests) {
      for (const field of dependencyFields) {
        for (const shared of sharedPackages) {
          const range = manifest[field]?.[shared];
          if (range === undefined) continue;
          const seen = ranges.get(shared) ?? new Set();
          seen.add(`${range} (${name} ${field})`);
          ranges.set(shared, seen);
        }
      }
    }
    const rangeOf = (entry: string) => entry.split(' ')[0];
    for (const [shared, seen] of ranges) {
      const distinct = new Set([...seen].map(rangeOf));
      expect(distinct.size, `${shared}: ${[...seen].join(', ')}`).toBe(1);
    }
    // server, client and core are released together (each pins core exactly): one range across them.
    const generationTwo = sdkGenerationTwo.flatMap((name) =>
      [...(ranges.get(name) ?? [])].map((entry) => `${name} ${entry}`),
    );
    expect(new Set(generationTwo.map((entry) => entry.split(' ')[1])).size, generationTwo.join(', ')).toBe(1);
    // Not a vacuous pass: the repository uses zod and the 2.x SDK.
    expect([...ranges.keys()]).toEqual(expect.arrayContaining(['zod', '@modelcontextprotocol/server']));
  });
});
