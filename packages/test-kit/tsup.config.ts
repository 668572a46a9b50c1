import { defineConfig } from 'tsup';
import { raiseBuildPriority } from '../../tooling/build-priority.js';
import { fixtureServerNames } from './src/fixture-servers/fixture-server-paths.js';

// The apps' builds and every test that starts a fixture wait for these bundles (tooling/build-priority.ts).
raiseBuildPriority();

// A require of its own for each bundle: the CommonJS that gets inlined (the 1.x SDK's ajv, cross-spawn) requires Node's
// built-ins, and an ES module has no `require`.
const requireShim =
  "import { createRequire as __fixtureCreateRequire } from 'node:module';\nconst require = __fixtureCreateRequire(import.meta.url);";

/**
 * The fixture servers, each bundled into one file with everything it imports (the MCP SDKs, zod): a test suite starts
 * them hundreds of times, and Node loads one file in less than half the CPU of the ~200 ES modules the sources
 * import (0.16 s against 0.37 s a start). `fixtureServerPath` hands out a bundle only while it is newer than every
 * source of the folder, else the source itself: an edited fixture is never run stale. Nothing else is built: the
 * rest of this private package is TypeScript that vitest loads as it is.
 */
export default defineConfig({
  entry: Object.fromEntries(
    fixtureServerNames.map((name) => [name.replace(/\.mjs$/, ''), `src/fixture-servers/${name}`]),
  ),
  outDir: 'dist/fixture-servers',
  format: ['esm'],
  outExtension: () => ({ js: '.mjs' }),
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: false,
  sourcemap: false,
  dts: false,
  clean: true,
  banner: { js: requireShim },
});
