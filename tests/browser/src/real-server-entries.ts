/**
 * Where the programs of the console suite are: the built `search-mcp-http` and `search-mcp` bins and the real MCP
 * servers they run, each started with the current node (no npx, no network). All are devDependencies of this
 * package, so `turbo run test` builds the two apps first.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The folder of `packageName` as this package resolves it. */
function packageRoot(packageName: string): string {
  return dirname(require.resolve(`${packageName}/package.json`));
}

/** The path of `packageName`'s first bin. */
function binEntry(packageName: string): string {
  const root = packageRoot(packageName);
  const manifest = require(join(root, 'package.json')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (!bin) throw new Error(`${packageName} has no bin`);
  return join(root, bin);
}

/** The `search-mcp-http` bin. */
export const cliEntry = join(packageRoot('@search-mcp/http'), 'dist/cli.js');
/** The `search-mcp` bin (`search-mcp ui`). */
export const stdioCliEntry = join(packageRoot('@search-mcp/cli'), 'dist/cli.js');
export const everythingEntry = binEntry('@modelcontextprotocol/server-everything');
export const memoryEntry = binEntry('@modelcontextprotocol/server-memory');
export const hostileServerEntry = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));
