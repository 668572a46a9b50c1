import { defineConfig, type Options } from 'tsup';

/**
 * The one tsup configuration every package builds with: ESM for Node 20, source maps, no declarations. tsup's
 * declarations (a rollup of every package's types) were most of a cold build (5½ minutes on 2 cores); a library
 * writes its declarations with `tsc -p tsconfig.build.json` after this build instead (its `build` script;
 * client-manager still rolls them up, its tsup.config.ts says why), and an app, a bin nothing imports, writes none.
 * A package passes only what differs (its entry points, a bin's banner).
 */
export function packageBuildConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'node20',
    dts: false,
    sourcemap: true,
    clean: true,
    ...overrides,
  });
}
