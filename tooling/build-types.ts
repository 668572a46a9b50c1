/**
 * `pnpm build:types` (turbo's root task `//#build:types`): one TypeScript program type-checks every library, the
 * apps' sources and the benchmarks, and writes the libraries' declarations into their `dist/`.
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
 * - Any diagnostic fails the task, printed as `tsc` prints it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import ts from 'typescript';
import { raiseBuildPriority } from './build-priority.js';

const repositoryRoot = resolve(import.meta.dirname, '..');

/** Checked, never emitted: the apps' sources (their bins are bundles) and the benchmarks. */
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
 * The base options, declarations on, and `paths` from every typed package's `exports` to its sources: a library's,
 * and an app's subpath (`@search-mcp/http/local-console`).
 */
function compilerOptions(typed: readonly TypedPackage[]): ts.CompilerOptions {
  const base = ts.getParsedCommandLineOfConfigFile(
    join(repositoryRoot, 'tsconfig.base.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (base === undefined) throw new Error('tsconfig.base.json could not be read');
  const paths: Record<string, string[]> = {};
  for (const typedPackage of typed) {
    for (const entry of typedPackage.entries) {
      const subpath = entry.subpath.replace(/^\.\/?/, '');
      paths[subpath === '' ? typedPackage.name : `${typedPackage.name}/${subpath}`] = [
        `${typedPackage.folder}/src/${entry.name}.ts`,
      ];
    }
  }
  return {
    ...base.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    sourceMap: false,
    declarationMap: false,
    stripInternal: true,
    rootDir: repositoryRoot,
    // Never written: every declaration goes through `writeFile` below, which maps it into its package.
    outDir: join(repositoryRoot, '.declarations'),
    baseUrl: repositoryRoot,
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

function removeDeclarations(folder: string): void {
  const dist = join(repositoryRoot, folder, 'dist');
  let files: string[];
  try {
    files = readdirSync(dist, { recursive: true, encoding: 'utf8' });
  } catch {
    return;
  }
  for (const file of files) if (file.endsWith('.d.ts')) rmSync(join(dist, file));
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

/** An app's declaration file that imports something its package does not ship. */
function standaloneDeclarationError(file: ts.SourceFile): ts.Diagnostic {
  return {
    category: ts.DiagnosticCategory.Error,
    code: 0,
    file,
    start: 0,
    length: 0,
    messageText:
      'the declarations of an app subpath import another module, which the app does not publish (its bundle inlines ' +
      'its libraries): give its exports types spelt out in this file',
  };
}

function report(diagnostics: readonly ts.Diagnostic[]): void {
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => repositoryRoot,
    getNewLine: () => '\n',
  };
  const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stderr.write(format(diagnostics, host));
  process.stderr.write(`\n${diagnostics.length} type error(s): no declarations written\n`);
}

async function main(): Promise<number> {
  const libraries = typedPackagesIn('packages');
  const apps = typedPackagesIn('apps');
  const options = compilerOptions([...libraries, ...apps]);
  const librarySources = libraries.flatMap((library) => sourceFiles(`${library.folder}/src`));
  const program = ts.createProgram({ rootNames: [...librarySources, ...checkedOnly.flatMap(sourceFiles)], options });
  // `ts.getPreEmitDiagnostics` would also write the declarations of the checked-only files to report their
  // declaration errors (half the time of this task): the libraries' declaration errors come with their emit below.
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ];
  /** Emits one file's declarations to `write`, its declaration errors to `diagnostics`. */
  const emitDeclarations = (file: string, write: (fileName: string, text: string) => void): ts.SourceFile => {
    const sourceFile = program.getSourceFile(file);
    if (sourceFile === undefined) throw new Error(`${file} is not in the program`);
    diagnostics.push(...program.emit(sourceFile, write, undefined, true).diagnostics);
    return sourceFile;
  };
  // fileName: <outDir>/packages/NAME/src/…/MODULE.d.ts, kept until nothing failed.
  const declarations = new Map<string, string>();
  for (const file of librarySources) emitDeclarations(file, (fileName, text) => declarations.set(fileName, text));
  // An app's subpath: its one declaration file, written where its `exports` say.
  const appDeclarations = new Map<string, string>();
  for (const app of apps) {
    for (const entry of app.entries) {
      let text = '';
      const sourceFile = emitDeclarations(join(repositoryRoot, app.folder, 'src', `${entry.name}.ts`), (_, emitted) => {
        text = emitted;
      });
      if (/^\s*import\b|\bfrom\s+['"]|\bimport\(\s*['"]|^\/\/\/\s*<reference/m.test(text)) {
        diagnostics.push(standaloneDeclarationError(sourceFile));
      }
      appDeclarations.set(join(repositoryRoot, app.folder, 'dist', `${entry.name}.d.ts`), text);
    }
  }
  if (diagnostics.length > 0) {
    report(diagnostics);
    return 1;
  }

  const byFolder = new Map(libraries.map((library) => [library.folder, library]));
  const temporary = mkdtempSync(join(tmpdir(), 'search-mcp-declarations-'));
  try {
    for (const library of libraries) removeDeclarations(library.folder);
    for (const [fileName, text] of declarations) {
      const fromRoot = relative(options.outDir as string, fileName)
        .split(sep)
        .join('/');
      const match = /^(packages\/[^/]+)\/src\/(.+)$/.exec(fromRoot);
      const library = match?.[1] === undefined ? undefined : byFolder.get(match[1]);
      if (match?.[2] === undefined || library === undefined) throw new Error(`unexpected declaration ${fromRoot}`);
      const target = rolledUp.has(library.folder)
        ? join(temporary, fromRoot)
        : join(repositoryRoot, library.folder, 'dist', match[2]);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    for (const library of libraries) if (rolledUp.has(library.folder)) await rollUp(library, temporary);
    for (const [target, text] of appDeclarations) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  return 0;
}

// The packaging tests wait for these declarations: with an equal share of two cores beside every package's tests,
// this one process took 3 minutes for 38 s of CPU, and the packaging tests, started after it, ended the run.
raiseBuildPriority();
process.exitCode = await main();
