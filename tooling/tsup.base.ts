import { defineConfig, type Options } from 'tsup';

/**
 * The one tsup configuration every package builds with: ESM for Node 20, declarations, source maps.
 * A package passes only what differs (its entry points, a banner for a bin).
 */
export function packageBuildConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'node20',
    dts: true,
    sourcemap: true,
    clean: true,
    ...overrides,
  });
}
