import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * A circle of relative imports among TypeScript sources: `cycle` is one way round it (each file imports the next, the
 * last imports the first); `tangle` is every file caught in it (those that reach each other), sorted. Two cycles
 * through the same files are one tangle, reported once. Paths are relative to the root given, with `/`.
 */
export interface ImportCircle {
  readonly cycle: readonly string[];
  readonly tangle: readonly string[];
}

const sourceExtensions = ['.ts', '.tsx', '.mts', '.cts'];
const skippedDirectories = new Set(['node_modules', 'dist']);

/**
 * Finds the import circles among the `.ts` sources under `directories` (type-only imports count: a circle of types
 * still ties the files together, and it is what the repository's import-circle check measures). Only relative
 * specifiers are followed, as the sources write them under NodeNext (`./x.js` is `./x.ts`; `./dir` and `./dir/index.js`
 * are `./dir/index.ts`); package imports and files outside `directories` are not part of the graph.
 */
export function findImportCircles(directories: readonly string[], root: string): ImportCircle[] {
  const files = directories.flatMap((directory) => sourceFilesUnder(resolve(root, directory)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = relativeImportsOf(readFileSync(file, 'utf8'))
      .map((specifier) => resolveSpecifier(file, specifier, known))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  const display = (file: string) => relative(root, file).split(sep).join('/');
  return stronglyConnected(graph)
    .filter((component) => component.length > 1 || (graph.get(component[0] ?? '') ?? []).includes(component[0] ?? ''))
    .map((component) => {
      const tangle = [...component].sort();
      return {
        cycle: shortestCycle(graph, new Set(tangle), tangle[0] ?? '').map(display),
        tangle: tangle.map(display),
      };
    })
    .sort((a, b) => (a.cycle[0] ?? '').localeCompare(b.cycle[0] ?? ''));
}

/** `a > b > c > a`, with the files of the tangle outside that cycle named after it. */
export function formatImportCircle(circle: ImportCircle): string {
  const path = [...circle.cycle, circle.cycle[0]].join(' > ');
  const others = circle.tangle.filter((file) => !circle.cycle.includes(file));
  return others.length === 0 ? path : `${path} (tangled with ${others.join(', ')})`;
}

function sourceFilesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirectories.has(entry.name)) found.push(...sourceFilesUnder(path));
    } else if (sourceExtensions.some((extension) => entry.name.endsWith(extension))) {
      found.push(path);
    }
  }
  return found;
}

/**
 * The relative specifiers of a source's `import … from`, `import type`, `export … from`, side-effect imports and
 * `import('…')` (also in type positions). TypeScript's own pre-processor reads them, so specifiers inside comments and
 * strings are not mistaken for imports.
 */
function relativeImportsOf(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'));
}

/** The source a relative specifier names, if it is one of `known`. */
function resolveSpecifier(importer: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const target = resolve(dirname(importer), specifier);
  const candidates = [target];
  const emitted = /\.(m|c)?js$/.exec(target);
  if (emitted) {
    const stem = target.slice(0, -emitted[0].length);
    const kind = emitted[1] ?? '';
    candidates.push(`${stem}.${kind}ts`, `${stem}.d.${kind}ts`);
    if (kind === '') candidates.push(`${stem}.tsx`);
  } else if (!sourceExtensions.some((extension) => target.endsWith(extension))) {
    candidates.push(`${target}.ts`, `${target}.tsx`, `${target}.d.ts`);
  }
  if (existsSync(target) && statSync(target).isDirectory()) candidates.push(join(target, 'index.ts'));
  return candidates.find((candidate) => known.has(candidate));
}

/** Tarjan's strongly connected components, iterative (deep import chains must not overflow the stack). */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    lowLink.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          lowLink.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** The shortest way from `start` back to itself inside `tangle` (breadth first, so the report names few files). */
function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, tangle: ReadonlySet<string>, start: string) {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const target of graph.get(node) ?? []) {
      if (!tangle.has(target)) continue;
      if (target === start) {
        const cycle = [node];
        while (cycle[0] !== start) cycle.unshift(cameFrom.get(cycle[0]!)!);
        return cycle;
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}
