import { defineConfig, mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../tooling/vitest.base.js';

// Each file starts Redis, three search-mcp-http replicas (each with its stdio backend) and HAProxy in its beforeAll,
// and runs load through them: long timeouts, and one file at a time (two rigs at once on a 2-core machine would make
// the load, not the cluster, what fails).
export default mergeConfig(
  packageTestConfig({ include: ['src/**/*.test.ts'], testTimeout: 180_000, realServiceSuite: true }),
  defineConfig({ test: { fileParallelism: false } }),
);
