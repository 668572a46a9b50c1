/**
 * `pnpm build:types` (turbo's root task `//#build:types`): one run of TypeScript 7's `tsc` (the root devDependency
 * `typescript-native`) type-checks every library, the apps' sources and the benchmarks, and this script writes the
 * libraries' declarations from it into their `dist/`.
 *
 * One program, not one `tsc` per package: each package's `tsc` parsed and checked the Node types, the MCP SDK and zod
 * again, and waited for its dependencies' declarations, so the declarations were a chain of eight processes through
 * the whole test run (README, "Development"). Here a workspace package is imported from its sources (`paths`, made
 * from the packages' `exports`), so nothing needs to be built first, and the declarations keep the package names.
 *
 * - A library is a package under `packages/` whose `exports` name `types` in `dist/`; each such `dist/NAME.d.ts` comes
 *   from `src/NAME.ts`. Its declarations are one file per module, except those of `rolledUp` below.
 * - An app's typed subpath (`@search-mcp/http/local-console`) gets its one declaration file, `dist/NAME.d.ts` from
 *   `src/NAME.ts`, too. The app's bundle inlines its libraries, so that file must import nothing: its exports are
 *   annotated with types spelt out, and an import in it fails the task.
 * - Before writing, a library's old declarations are removed (its build leaves them: tooling/tsup.base.ts).
 * - Any diagnostic fails the task, printed by `tsc`, and nothing is written.
 * - TypeScript 7 writes string literal types with single quotes and `x?: T` without `| undefined`; the declarations
 *   are otherwise those TypeScript 5.9 wrote, and TypeScript 5.9 reads them (README, "Development").
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { raiseBuildPriority } from './build-priority.js';

const repositoryRoot = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/**
 * Checked, their declarations never written into a package: the apps' sources (their bins are bundles) and the
 * benchmarks. `tsc` writes their declarations into the work folder like the rest, so a declaration error in them
 * (a type that cannot be named) fails the task too.
 */
const checkedOnly = ['apps/http-server/src', 'apps/stdio-server/src', 'apps/web-search-server/src', 'bench'];

/**
 * Libraries whose declarations are one file per entry point, rolled up from the modules' (rollup-plugin-dts). The
 * client manager: its internal modules' declarations import the 1.x and 2.x SDK clients, which its public API does not
 * expose (they stay dependencies, not peers; tests/packaging checks it); a rollup keeps only what the entries export.
 * For the same reason every library's `@internal` members (the client manager's, which a subclass shares) are left
 * out of its declarations (`stripInternal`).
 */
const rolledUp = new Set(['packages/client-manager']);

/** A workspace package whose `exports` name `types` in `dist/`. */
interface TypedPackage {
  /** The package's folder, from the repository root, with `/`. */
  folder: string;
  name: string;
  /** Entry points: the `src/NAME.ts` behind each `dist/NAME.d.ts` of `exports`. */
  entries: Array<{ subpath: string; name: string }>;
}

/** The typed packages under `packages/` (the libraries, whose declarations this task writes) or `apps/`. */
function typedPackagesIn(parent: 'packages' | 'apps'): TypedPackage[] {
  const typed: TypedPackage[] = [];
  for (const entry of readdirSync(join(repositoryRoot, parent), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = `${parent}/${entry.name}`;
    const manifest = JSON.parse(readFileSync(join(repositoryRoot, folder, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
    };
    const entries: TypedPackage['entries'] = [];
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === 'object' && target !== null ? (target as { types?: unknown }).types : undefined;
      const match = typeof types === 'string' ? /^\.\/dist\/(.+)\.d\.ts$/.exec(types) : null;
      if (match?.[1] !== undefined) entries.push({ subpath, name: match[1] });
    }
    if (entries.length > 0) typed.push({ folder, name: manifest.name, entries });
  }
  return typed;
}

/**
 * The compiler options for `tsc -p` over the base config (which the generated config extends): declarations on, and
 * `paths` from every typed package's `exports` to its sources: a library's, and an app's subpath
 * (`@search-mcp/http/local-console`).
 */
function compilerOptions(typed: readonly TypedPackage[], outDir: string): Record<string, unknown> {
  const paths: Record<string, string[]> = {};
  for (const typedPackage of typed) {
    for (const entry of typedPackage.entries) {
      const subpath = entry.subpath.replace(/^\.\/?/, '');
      paths[subpath === '' ? typedPackage.name : `${typedPackage.name}/${subpath}`] = [
        join(repositoryRoot, typedPackage.folder, 'src', `${entry.name}.ts`),
      ];
    }
  }
  return {
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    sourceMap: false,
    declarationMap: false,
    stripInternal: true,
    rootDir: repositoryRoot,
    outDir,
    // Where a config at the repository's root finds the base config's `types` (@types/node); this one is elsewhere.
    typeRoots: [join(repositoryRoot, 'node_modules', '@types')],
    paths,
  };
}

/** The TypeScript files under a folder, tests and installed packages left out. */
function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'results') walk(path);
      } else if (/\.(ts|mts|cts)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
        files.push(path);
      }
    }
  };
  walk(join(repositoryRoot, folder));
  return files;
}

/** The declaration files under a folder, by their path from it (with `/`). */
function declarationFiles(folder: string): string[] {
  let files: string[];
  try {
    files = readdirSync(folder, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return files.filter((file) => file.endsWith('.d.ts')).map((file) => file.split(sep).join('/'));
}

function removeDeclarations(folder: string): void {
  const dist = join(repositoryRoot, folder, 'dist');
  for (const file of declarationFiles(dist)) rmSync(join(dist, file));
}

async function rollUp(library: TypedPackage, moduleDeclarations: string): Promise<void> {
  const input = Object.fromEntries(
    library.entries.map((entry) => [entry.name, join(moduleDeclarations, library.folder, 'src', `${entry.name}.d.ts`)]),
  );
  const bundle = await rollup({
    input,
    plugins: [dts()],
    // Only the library's own modules are inlined; every package stays an import.
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  });
  try {
    await bundle.write({ dir: join(repositoryRoot, library.folder, 'dist'), format: 'es' });
  } finally {
    await bundle.close();
  }
}

/**
 * Type-checks and emits every declaration into `outDir` with TypeScript 7's compiler (native code; TypeScript 5.9's,
 * in this process, took seven times the CPU). Its diagnostics go to standard output, as `tsc` prints them. One thread:
 * this task runs beside every build, and on two cores more threads cost CPU without ending sooner.
 */
function typeCheck(options: Record<string, unknown>, files: readonly string[], workFolder: string): boolean {
  const config = join(workFolder, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({ extends: join(repositoryRoot, 'tsconfig.base.json'), compilerOptions: options, files }),
  );
  const tsc = join(dirname(require.resolve('typescript-native/package.json')), 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '--project', config, '--singleThreaded'], { stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status === 0;
}

async function main(): Promise<number> {
  const libraries = typedPackagesIn('packages');
  const apps = typedPackagesIn('apps');
  const librarySources = libraries.flatMap((library) => sourceFiles(`${library.folder}/src`));
  // Outside node_modules: rollup-plugin-dts leaves a module there out of a rollup.
  const workFolder = mkdtempSync(join(tmpdir(), 'search-mcp-declarations-'));
  try {
    // <outDir>/packages/NAME/src/…/MODULE.d.ts, <outDir>/apps/NAME/src/…; the checked-only files' are left there.
    const outDir = join(workFolder, 'out');
    const options = compilerOptions([...libraries, ...apps], outDir);
    if (!typeCheck(options, [...librarySources, ...checkedOnly.flatMap(sourceFiles)], workFolder)) {
      process.stderr.write('type errors: no declarations written\n');
      return 1;
    }
    // An app's subpath: its one declaration file, written where its `exports` say, if it imports nothing.
    const appDeclarations = new Map<string, string>();
    for (const app of apps) {
      for (const entry of app.entries) {
        const text = readFileSync(join(outDir, app.folder, 'src', `${entry.name}.d.ts`), 'utf8');
        if (/^\s*import\b|\bfrom\s+['"]|\bimport\(\s*['"]|^\/\/\/\s*<reference/m.test(text)) {
          process.stderr.write(
            `${app.folder}/src/${entry.name}.ts: error: the declarations of an app subpath import another module, ` +
              'which the app does not publish (its bundle inlines its libraries): give its exports types spelt out ' +
              'in this file\nno declarations written\n',
          );
          return 1;
        }
        appDeclarations.set(join(repositoryRoot, app.folder, 'dist', `${entry.name}.d.ts`), text);
      }
    }
    for (const library of libraries) {
      removeDeclarations(library.folder);
      if (rolledUp.has(library.folder)) {
        await rollUp(library, outDir);
        continue;
      }
      // Only declarations there (`emitDeclarationOnly`), laid out as the package's `src/`.
      cpSync(join(outDir, library.folder, 'src'), join(repositoryRoot, library.folder, 'dist'), { recursive: true });
    }
    for (const [target, text] of appDeclarations) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  } finally {
    rmSync(workFolder, { recursive: true, force: true });
  }
  return 0;
}

// The packaging tests wait for these declarations: with an equal share of two cores beside every package's tests,
// this one process took 3 minutes for 38 s of CPU, and the packaging tests, started after it, ended the run.
raiseBuildPriority();
process.exitCode = await main();
