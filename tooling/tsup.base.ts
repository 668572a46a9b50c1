import { defineConfig, type Options } from 'tsup';

/**
 * The one tsup configuration every package builds with: ESM for Node 20, source maps, no declarations. tsup's
 * declarations (a rollup of every package's types) were most of a cold build (5½ minutes on 2 cores); a library
 * writes its declarations with `tsc -p tsconfig.build.json` in a task of its own, `build:types` (client-manager still
 * rolls them up with `tsup --dts-only`, its tsup.config.ts says why), and an app, a bin nothing imports, writes none.
 * `build` is this JavaScript alone so that the tests, which run JavaScript, wait for no declarations: turbo.json
 * chains `build:types` after it.
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
