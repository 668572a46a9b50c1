import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { init, parse } from 'es-module-lexer';
import type { WorkspacePackage } from './workspace.js';

/** Every file under `directory`, as paths relative to it with `/` separators. */
export function listFiles(directory: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(directory, path).split(sep).join('/'));
    }
  };
  walk(directory);
  return files.sort();
}

/** `@scope/name/sub/path.js` → `@scope/name`; `lunr` → `lunr`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const builtins = new Set(builtinModules);

export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtins.has(packageNameOf(specifier));
}

function isBare(specifier: string): boolean {
  return !specifier.startsWith('.') && !specifier.startsWith('/') && !/^[a-z]+:/i.test(specifier.replace(/^node:/, ''));
}

/**
 * The bare module specifiers a built ES module imports: static imports and re-exports, dynamic `import("…")` with a
 * string, and `require("…")` (tsup's `createRequire` shim, or a module's own lazy `createRequire`). Imports are
 * lexed, not matched with a regular expression, so code that merely mentions `import` in a string is not counted.
 */
export async function bareImportsOfModule(code: string): Promise<string[]> {
  await init;
  const [imports] = parse(code);
  const found = new Set<string>();
  for (const entry of imports) if (entry.n !== undefined && isBare(entry.n)) found.add(entry.n);
  // `require2(…)`: esbuild renames a module's own `require` (a lazy `createRequire`) next to its shim. Inside inlined
  // third-party modules such text is that code's own business (ajv's code generator writes `require("…")` in strings).
  for (const match of withoutInlinedDependencies(code).matchAll(/\brequire\d*\(\s*["']([^"']+)["']\s*\)/g)) {
    if (match[1] && isBare(match[1])) found.add(match[1]);
  }
  // `__require(…)`: esbuild's shim for a `require` of inlined CommonJS that it left external, anywhere in the file.
  for (const match of code.matchAll(/\b__require\(\s*["']([^"']+)["']\s*\)/g)) {
    if (match[1] && isBare(match[1])) found.add(match[1]);
  }
  return [...found].filter((specifier) => !specifier.startsWith('node:')).sort();
}

/**
 * A built file without the modules it inlines from `node_modules` (esbuild heads each inlined module with a `// path`
 * line, see foreignCodeIn): what is left is the package's own code, and the code of workspace packages a bundle
 * inlines.
 */
function withoutInlinedDependencies(code: string): string {
  return code
    .split(/^(?=\/\/ \S+$)/m)
    .filter((part) => !/^\/\/ \S*node_modules\//.test(part))
    .join('');
}

/**
 * The bare module specifiers a declaration file refers to (`import … from`, `export … from`, `import("…")`).
 * Declaration files are TypeScript, which the ES module lexer does not read; their import lines are plain.
 */
export function bareImportsOfDeclarations(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) if (match[1] && isBare(match[1])) found.add(match[1]);
  }
  return [...found].sort();
}

/** One bare import of a built file: the file, what it imports, and whether the file is a declaration. */
export interface BuildImport {
  file: string;
  specifier: string;
  kind: 'types' | 'code';
}

/** Every bare import of the files under `dist/` (declarations read as declarations, modules lexed). */
export async function importsOfBuild(packageDirectory: string, files: readonly string[]): Promise<BuildImport[]> {
  const found: BuildImport[] = [];
  for (const file of files.filter((entry) => entry.startsWith('dist/'))) {
    const code = readFileSync(join(packageDirectory, file), 'utf8');
    if (/\.d\.[cm]?ts$/.test(file)) {
      for (const specifier of bareImportsOfDeclarations(code)) found.push({ file, specifier, kind: 'types' });
    } else if (/\.[cm]?js$/.test(file)) {
      for (const specifier of await bareImportsOfModule(code)) found.push({ file, specifier, kind: 'code' });
    }
  }
  return found;
}

export interface ForeignCode {
  file: string;
  /** Where the inlined code came from, as the bundle names it. */
  origin: string;
}

/**
 * Code in a built file that is not the package's own source, i.e. inlined from another package. Two independent
 * witnesses, both written by esbuild (tsup): the source map lists every file that went into the bundle (each must
 * lie in the package's own `src/`, or be its own package.json), and the bundle marks each inlined module with a `// path` comment, which for
 * the package's own code is `// src/…` and for anything inlined starts with `../` or `node_modules/`.
 */
export function foreignCodeIn(packageDirectory: string, builtFile: string): ForeignCode[] {
  const found: ForeignCode[] = [];
  const path = join(packageDirectory, builtFile);
  const code = readFileSync(path, 'utf8');
  for (const match of code.matchAll(/^\/\/ ((?:\.\.\/|node_modules\/)\S+)$/gm)) {
    found.push({ file: builtFile, origin: match[1] ?? '' });
  }
  const ownSource = join(packageDirectory, 'src') + sep;
  // A package may read its own version from its package.json; esbuild inlines that JSON.
  const ownManifest = join(packageDirectory, 'package.json');
  const map = sourceMapOf(path, code);
  for (const source of map?.sources ?? []) {
    // Sources are relative to the map's own folder (and its sourceRoot).
    const absolute = resolve(map?.directory ?? '', map?.sourceRoot ?? '', source);
    if (!absolute.startsWith(ownSource) && absolute !== ownManifest)
      found.push({ file: `${builtFile}.map`, origin: source });
  }
  return found;
}

interface SourceMap {
  sources?: string[];
  sourceRoot?: string;
  /** The folder the map lives in (the built file's, for an inline map). */
  directory: string;
}

/** The source map a built file names in `//# sourceMappingURL=` (a file beside it or inline), if any. */
function sourceMapOf(path: string, code: string): SourceMap | undefined {
  const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
  if (url === undefined) return undefined;
  const inline = /^data:application\/json(?:;charset=[^;,]+)?;base64,(.*)$/.exec(url);
  if (inline) {
    const parsed = JSON.parse(Buffer.from(inline[1] ?? '', 'base64').toString('utf8')) as Omit<SourceMap, 'directory'>;
    return { ...parsed, directory: dirname(path) };
  }
  const mapPath = resolve(dirname(path), url);
  if (!existsSync(mapPath)) return undefined;
  return {
    ...(JSON.parse(readFileSync(mapPath, 'utf8')) as Omit<SourceMap, 'directory'>),
    directory: dirname(mapPath),
  };
}

/**
 * The workspace packages whose code a bundled app carries, by name: the inputs of its esbuild metafile
 * (`dist/metafile-esm.json`, written by tooling/tsup.base.ts) that sit in another workspace package's folder.
 */
export function inlinedWorkspacePackages(app: WorkspacePackage, workspace: WorkspacePackage[]): string[] {
  const metafile = JSON.parse(readFileSync(join(app.directory, 'dist', 'metafile-esm.json'), 'utf8')) as {
    inputs: Record<string, unknown>;
  };
  const inputs = Object.keys(metafile.inputs).map((input) => resolve(app.directory, input));
  return workspace
    .filter((entry) => entry.name !== app.name && inputs.some((input) => input.startsWith(entry.directory + sep)))
    .map((entry) => entry.name)
    .sort();
}
