import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findImportCircles, formatImportCircle } from '../../../tooling/import-circles.js';
import { repositoryRoot } from './workspace.js';

// A file that imports a file importing it back (often only for a type) ties the two into one unit that cannot be
// read, moved or tested apart. Shared types live in types-only modules named for them instead; this check keeps the
// sources of every package and app free of circles, type-only imports included.

describe('import circles in the repository', () => {
  it('no source of a package or an app imports, through any chain, a file that imports it back', () => {
    const sourceDirectories = ['packages', 'apps'].flatMap((parent) =>
      readdirSync(join(repositoryRoot, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(repositoryRoot, parent, entry.name, 'src')))
        .map((entry) => `${parent}/${entry.name}/src`),
    );
    expect(sourceDirectories).toContain('packages/server/src');
    expect(sourceDirectories).toContain('apps/http-server/src');

    const circles = findImportCircles(sourceDirectories, repositoryRoot).map(formatImportCircle);

    expect(circles, `import circles (move the shared type to a types-only module):\n${circles.join('\n')}`).toEqual([]);
  });
});

describe('findImportCircles', () => {
  let root: string | undefined;

  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  /** A source tree in a fresh folder: `{ 'src/a.ts': '…' }`. */
  function tree(files: Record<string, string>): string {
    root = mkdtempSync(join(tmpdir(), 'import-circles-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it('finds a circle made of type-only imports, and reports it once, from its first file', () => {
    const directory = tree({
      'src/options.ts': "import type { Hub } from './hub.js';\nexport interface Options { hub?: Hub }\n",
      'src/hub.ts':
        "import type { Options } from './options.js';\nexport class Hub { constructor(readonly options: Options) {} }\n",
    });

    const circles = findImportCircles(['src'], directory);

    expect(circles).toEqual([{ cycle: ['src/hub.ts', 'src/options.ts'], tangle: ['src/hub.ts', 'src/options.ts'] }]);
    expect(circles.map(formatImportCircle)).toEqual(['src/hub.ts > src/options.ts > src/hub.ts']);
  });

  it('finds no circle once the shared type lives in a types-only module', () => {
    const directory = tree({
      'src/options.ts':
        "import type { HubShape } from './hub-shape.js';\nexport interface Options { hub?: HubShape }\n",
      'src/hub-shape.ts': 'export interface HubShape { readonly name: string }\n',
      'src/hub.ts':
        "import type { Options } from './options.js';\nexport class Hub { constructor(readonly options: Options) {} }\n",
    });

    expect(findImportCircles(['src'], directory)).toEqual([]);
  });

  it('follows every import form: export from, side effect, import(), typeof import(), a folder and its index', () => {
    const directory = tree({
      'src/a.ts': "export * from './b.js';\n",
      'src/b.ts': "import './c.js';\n",
      'src/c.ts': "export const d = () => import('./d/index.js');\n",
      'src/d/index.ts': "export type E = typeof import('../e.js');\n",
      'src/e.ts': "export { a } from './f';\n",
      'src/f/index.ts': "import '../a.js';\nexport const a = 1;\n",
    });

    const [circle, ...others] = findImportCircles(['src'], directory);

    expect(others).toEqual([]);
    expect(circle?.cycle).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d/index.ts', 'src/e.ts', 'src/f/index.ts']);
  });

  it('names the files of a tangle outside the shortest cycle, and finds a file importing itself', () => {
    const directory = tree({
      'src/a.ts': "import './b.js';\nimport './c.js';\n",
      'src/b.ts': "import './a.js';\n",
      'src/c.ts': "import './a.js';\n",
      'src/self.ts': "export type Self = import('./self.js').Other;\nexport type Other = string;\n",
    });

    expect(findImportCircles(['src'], directory).map(formatImportCircle)).toEqual([
      'src/a.ts > src/b.ts > src/a.ts (tangled with src/c.ts)',
      'src/self.ts > src/self.ts',
    ]);
  });

  it('ignores imports in comments and strings, package imports, and files outside the folders checked', () => {
    const directory = tree({
      'src/a.ts': [
        "// import { b } from './b.js';",
        'const text = "import { b } from \'./b.js\'";',
        "import { z } from 'zod';",
        "import { outside } from '../other/outside.js';",
        'export { text, z, outside };',
      ].join('\n'),
      'src/b.ts': "import './a.js';\n",
      'other/outside.ts': "import '../src/a.js';\n",
    });

    expect(findImportCircles(['src'], directory)).toEqual([]);
  });
});
