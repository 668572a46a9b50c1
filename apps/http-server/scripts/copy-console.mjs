// Copies the built web console (`@search-mcp/console`'s dist, a devDependency so turbo builds it first) into this
// package's dist/console, which GET /ui serves (docs/console.md), with .br and .gz beside each text file so the
// server sends them precompressed. A build without the console's files only warns: /ui then says so.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, '..', 'dist', 'console');
let source;
try {
  source = join(dirname(createRequire(import.meta.url).resolve('@search-mcp/console/package.json')), 'dist');
} catch {
  source = undefined;
}
rmSync(target, { recursive: true, force: true });
if (source === undefined || !existsSync(join(source, 'index.html'))) {
  process.stderr.write('copy-console: @search-mcp/console has no dist/index.html; dist/console is left out\n');
  process.exit(0);
}
// Source maps stay behind: the package ships what the browser runs.
cpSync(source, target, { recursive: true, filter: (path) => !path.endsWith('.map') });
const compressible = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.webmanifest']);
const walk = (directory) => {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (compressible.has(extname(name))) {
      const content = readFileSync(path);
      if (content.length < 1024) continue;
      writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    }
  }
};
walk(target);
process.stdout.write(`copy-console: ${source} → dist/console\n`);
