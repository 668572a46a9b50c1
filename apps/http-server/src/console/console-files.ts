import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the console's built files are: `dist/console` beside this package's bundle (the build copies
 * `@search-mcp/console`'s `dist` there), else, in this repository before a build, that package's own `dist`.
 * Undefined when neither exists: `/ui` then says the console is not part of this build.
 */
export function defaultConsoleDirectory(): string | undefined {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'console');
  if (existsSync(join(bundled, 'index.html'))) return bundled;
  try {
    const manifest = createRequire(import.meta.url).resolve('@search-mcp/console/package.json');
    const workspace = join(dirname(manifest), 'dist');
    return existsSync(join(workspace, 'index.html')) ? workspace : undefined;
  } catch {
    return undefined;
  }
}
