import { copyFile, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { raiseBuildPriority } from './build-priority.js';
import { writeThirdPartyNotices } from './third-party-notices.js';

// The packages' builds load this file first: tests wait for those builds (tooling/build-priority.ts).
raiseBuildPriority();

/**
 * The one tsup configuration every package builds with: ESM for Node 20, source maps, no declarations. tsup's
 * declarations (a rollup of every package's types) were most of a cold build (5½ minutes on 2 cores): the libraries'
 * declarations come from one TypeScript program over the whole workspace, `pnpm build:types`
 * (tooling/build-types.ts), and an app, a bin nothing imports, writes none.
 * `build` is this JavaScript alone so that the tests, which run JavaScript, wait for no declarations. The two run at
 * once, into the same `dist/`: a build removes its old files but leaves the declarations (`clean` below), and the
 * declarations task replaces only those.
 * A package passes only what differs (its entry points, a bin's banner).
 */
export function packageBuildConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'node20',
    dts: false,
    sourcemap: true,
    clean: ['!**/*.d.ts'],
    ...overrides,
  });
}

// Inlined CommonJS modules (cross-spawn, the OpenTelemetry API, fastify) `require` Node's built-ins: an ES module has
// no `require` of its own, so every chunk gets one (esbuild renames a module's own `require` binding out of its way).
const requireShim =
  "import { createRequire as __searchMcpCreateRequire } from 'node:module';\nconst require = __searchMcpCreateRequire(import.meta.url);";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The folder of the client manager when the bundle just built carries it (esbuild's metafile lists its files among
 * the inputs), else undefined: an app without one starts no server and needs no watchdog. tsup runs in the app's
 * folder; the client manager resolves from there, as the bundle's own import did.
 */
async function clientManagerInBundle(metafile: string): Promise<string | undefined> {
  let folder: string;
  try {
    folder = dirname(
      createRequire(join(process.cwd(), 'package.json')).resolve('@search-mcp/client-manager/package.json'),
    );
  } catch {
    return undefined;
  }
  const { inputs } = JSON.parse(await readFile(metafile, 'utf8')) as { inputs: Record<string, unknown> };
  return Object.keys(inputs).some((input) => resolve(input).startsWith(folder + sep)) ? folder : undefined;
}

/**
 * An app published as one bundle (apps/stdio-server README, "How it is built"): Search MCP's libraries and their
 * dependencies are inlined, because Node spends most of a start in resolving and loading hundreds of small modules.
 * `external` is what stays in `node_modules`, each one of the app's `dependencies`: what a library loads with
 * `require` (esbuild cannot see through `createRequire`), native or file-relative code, and what loads on demand.
 * After the build, beside the bundle: the client manager's process watchdog, for an app that carries the client
 * manager (`dist/watchdog.cjs`, a script it spawns from beside its own module, here the bundle), and
 * `dist/THIRD-PARTY-NOTICES.md`, from esbuild's metafile (`dist/metafile-esm.json`).
 */
export function bundledAppBuildConfig(options: { entry: string[]; external: string[] }) {
  return packageBuildConfig({
    entry: options.entry,
    banner: { js: `#!/usr/bin/env node\n${requireShim}` },
    // tsup lets `noExternal` win over `external`: everything but the list.
    noExternal: [new RegExp(`^(?!(?:${options.external.map(escapeRegExp).join('|')})(?:/|$))`)],
    external: options.external,
    metafile: true,
    esbuildOptions(esbuildOptions) {
      // The maps name every inlined file; their text stays in the packages it came from (a smaller install).
      esbuildOptions.sourcesContent = false;
    },
    onSuccess: async () => {
      const clientManager = await clientManagerInBundle('dist/metafile-esm.json');
      if (clientManager !== undefined) await copyFile(join(clientManager, 'dist', 'watchdog.cjs'), 'dist/watchdog.cjs');
      await writeThirdPartyNotices({ metafile: 'dist/metafile-esm.json', output: 'dist/THIRD-PARTY-NOTICES.md' });
    },
  });
}
