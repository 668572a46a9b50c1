import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crossPackagePaths, crossPackagePathsIn } from './cross-package-paths.js';
import { repositoryRoot, workspacePackages } from './workspace.js';

describe('paths between workspace packages', () => {
  it('no package reaches into another one’s src/ or test/ by path (shared test helpers: @search-mcp/test-kit)', () => {
    const packages = workspacePackages().filter((entry) => /^(?:packages|apps|tests)\//.test(entry.relativeDirectory));
    const directories = packages.map((entry) => entry.directory);
    // This package is the exception: it reads the other packages' files as data (tarballs, sources, manifests) to
    // check them, and never imports or runs them.
    const scanned = packages
      .filter((entry) => entry.name !== '@search-mcp/packaging-tests')
      .map((entry) => entry.directory);
    expect(scanned.length).toBeGreaterThan(10);
    const found = crossPackagePaths(directories, repositoryRoot, scanned).map(
      (path) => `${path.file}:${path.line} '${path.text}' reaches into ${path.target}`,
    );
    expect(found).toEqual([]);
  });

  // The finder itself, on made-up packages `packages/alpha` and `apps/beta`, so that the check above cannot pass by
  // finding nothing.
  const root = '/repository';
  const alpha = join(root, 'packages', 'alpha');
  const beta = join(root, 'apps', 'beta');
  const findIn = (file: string, text: string) =>
    crossPackagePathsIn(file, text, [alpha, beta], root).map((path) => [path.line, path.target]);

  it('finds imports, URLs and root-joined paths into another package’s src/ or test/', () => {
    const test = join(beta, 'test', 'era.test.ts');
    const text = [
      "import { helper } from '../../../packages/alpha/test/helper.js';",
      "const server = new URL('../../../packages/alpha/src/server.mjs', import.meta.url);",
      "const fixture = join(repoRoot, 'packages/alpha/test/fixtures/server.mjs');",
      'const folder = `${repoRoot}/packages/alpha/src`;',
      "const mine = new URL('./fixtures/mine.mjs', import.meta.url);",
      "const built = join(repoRoot, 'packages/alpha/dist/cli.js');",
      "const manifest = new URL('../../../packages/alpha/package.json', import.meta.url);",
      "// join(repoRoot, 'packages/alpha/test/in-a-comment.ts')",
      "import { kit } from '@search-mcp/test-kit';",
    ].join('\n');
    expect(findIn(test, text)).toEqual([
      [1, 'packages/alpha'],
      [2, 'packages/alpha'],
      [3, 'packages/alpha'],
      [4, 'packages/alpha'],
    ]);
  });

  it('leaves a package’s own src/ and test/ alone, and reads .mjs fixtures too', () => {
    expect(findIn(join(alpha, 'src', 'a.test.ts'), "import { b } from '../test/b.js';")).toEqual([]);
    expect(findIn(join(alpha, 'test', 'fixtures', 'x.mjs'), "import '../../../../apps/beta/src/y.js';")).toEqual([
      [1, 'apps/beta'],
    ]);
  });
});
