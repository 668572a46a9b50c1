import { defineConfig, mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../tooling/vitest.base.js';

// A browser, the Inspector's two processes, an authorization server and search-mcp-http start in each file's
// beforeAll: tens of seconds on a busy 2-core CI machine, hence the long timeouts. One file at a time: each starts
// its own Chromium.
export default mergeConfig(
  packageTestConfig({ include: ['src/**/*.test.ts'], testTimeout: 180_000, realServiceSuite: true }),
  defineConfig({ test: { fileParallelism: false } }),
);
