import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * Finds paths into another workspace package's `src/` or `test/` in a file's string literals: an import such as
 * `'../../web-search-server/test/protocol-era-clients.js'`, a `new URL('../../../packages/x/src/…', import.meta.url)`,
 * or a `join(repoRoot, 'packages/x/test/fixtures/…')`. Such a path couples one package's tests to another's
 * internals (and to its folder layout), which a package name does not: shared test helpers live in
 * `@search-mcp/test-kit` and are imported by name. A package's own `src/` and `test/` are fine, and so are other
 * folders of another package (`dist/`, `package.json`). Comments are not read (the parser skips them).
 */

export interface CrossPackagePath {
  /** The file, relative to the repository root (`/` separators). */
  file: string;
  line: number;
  /** The string as written. */
  text: string;
  /** The package folder it reaches into, relative to the repository root. */
  target: string;
}

const sourceExtensions = /\.(?:[cm]?ts|[cm]?js|tsx|jsx)$/;
const skippedFolders = new Set(['node_modules', 'dist', '.turbo', 'coverage']);

/** The source files of a package folder (tests, fixtures and scripts included; installs and builds not). */
export function sourceFilesOf(directory: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) walk(join(current, entry.name));
      } else if (sourceExtensions.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.push(join(current, entry.name));
      }
    }
  };
  if (existsSync(directory)) walk(directory);
  return files.sort();
}

/** Every string literal of a source text (template literals by their fixed parts), with its line. */
function stringsOf(file: string, text: string): Array<{ text: string; line: number }> {
  const kind = /\.[cm]?js$|\.jsx$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found: Array<{ text: string; line: number }> = [];
  const add = (node: ts.Node, value: string) =>
    found.push({ text: value, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node, node.text);
    else if (ts.isTemplateExpression(node)) {
      add(node.head, node.head.text);
      for (const span of node.templateSpans) add(span.literal, span.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The paths of `text` (the content of `file`) into another package's `src/` or `test/`. `packageDirectories` are the
 * workspace's package folders, absolute; `root` is the repository root.
 */
export function crossPackagePathsIn(
  file: string,
  text: string,
  packageDirectories: readonly string[],
  root: string,
): CrossPackagePath[] {
  const ownerOf = (path: string) =>
    packageDirectories.find((directory) => path === directory || path.startsWith(`${directory}${sep}`));
  const own = ownerOf(file);
  const internalsOf = (path: string): string | undefined => {
    const owner = ownerOf(path);
    if (owner === undefined || owner === own) return undefined;
    const inside = relative(owner, path).split(sep)[0];
    return inside === 'src' || inside === 'test' ? owner : undefined;
  };
  const found: CrossPackagePath[] = [];
  for (const literal of stringsOf(file, text)) {
    const targets = new Set<string>();
    // Relative to the file: an import specifier, a `new URL(…, import.meta.url)`, a `resolve(here, …)`.
    if (/^\.\.?\//.test(literal.text)) {
      const target = internalsOf(resolve(dirname(file), literal.text));
      if (target) targets.add(target);
    }
    // Relative to the repository root, anywhere in the string: `join(repoRoot, 'packages/x/test/…')`, `${root}/apps/…`.
    for (const match of literal.text.matchAll(/(?:^|\/)((?:packages|apps|tests)\/[^/\s'"`]+\/(?:src|test))(?=\/|$)/g)) {
      const target = internalsOf(join(root, match[1] ?? ''));
      if (target) targets.add(target);
    }
    for (const target of targets) {
      found.push({
        file: relative(root, file).split(sep).join('/'),
        line: literal.line,
        text: literal.text,
        target: relative(root, target).split(sep).join('/'),
      });
    }
  }
  return found;
}

/** Every such path in the source files of the `scanned` packages (all of `packageDirectories` by default). */
export function crossPackagePaths(
  packageDirectories: readonly string[],
  root: string,
  scanned: readonly string[] = packageDirectories,
): CrossPackagePath[] {
  return scanned.flatMap((directory) =>
    sourceFilesOf(directory).flatMap((file) =>
      crossPackagePathsIn(file, readFileSync(file, 'utf8'), packageDirectories, root),
    ),
  );
}
