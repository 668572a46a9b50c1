import { defineConfig, mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../tooling/vitest.base.js';

// npm install of the tarballs (from the registry, then its cache) dominates; the rest takes seconds.
export default mergeConfig(
  packageTestConfig({ include: ['src/**/*.test.ts'], testTimeout: 240_000 }),
  defineConfig({ test: { globalSetup: ['./src/pack-global-setup.ts'] } }),
);
