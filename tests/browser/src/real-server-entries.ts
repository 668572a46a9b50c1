/**
 * Where the programs of the console suite are: the built `search-mcp-http` and `search-mcp` bins and the real MCP
 * servers they run, each started with the current node (no npx, no network).
 *
 * `@modelcontextprotocol/server-everything` and `-memory` are not devDependencies of this package: they are resolved
 * from the workspace packages that have them (`@search-mcp/http` for everything, the stdio app `@search-mcp/cli` for
 * memory). `@search-mcp/cli` is not a devDependency either, so its `dist` is found by its place in the repository.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const httpPackageRoot = dirname(require.resolve('@search-mcp/http/package.json'));
/** apps/stdio-server, from this file's place in the repository (tests/browser/src). */
const cliPackageRoot = fileURLToPath(new URL('../../../apps/stdio-server/', import.meta.url));

/** The path of `packageName`'s first bin, resolved from the package at `fromRoot`. */
function binEntry(fromRoot: string, packageName: string): string {
  const resolveFrom = createRequire(join(fromRoot, 'package.json'));
  const manifestPath = resolveFrom.resolve(`${packageName}/package.json`);
  const manifest = resolveFrom(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (!bin) throw new Error(`${packageName} has no bin`);
  return join(dirname(manifestPath), bin);
}

/** The `search-mcp-http` bin; `turbo run test` builds it first (`@search-mcp/http` is a devDependency). */
export const cliEntry = join(httpPackageRoot, 'dist/cli.js');
/** The `search-mcp` bin (`search-mcp ui`); build it with `turbo run build --filter=@search-mcp/cli...`. */
export const stdioCliEntry = join(cliPackageRoot, 'dist/cli.js');
export const everythingEntry = binEntry(httpPackageRoot, '@modelcontextprotocol/server-everything');
export const memoryEntry = binEntry(cliPackageRoot, '@modelcontextprotocol/server-memory');
export const hostileServerEntry = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));
