import { defineConfig, mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../tooling/vitest.base.js';

// One run of the suite per revision and target (server scenarios) and one per client scenario and version, each file in
// its beforeAll (a minute or two on a quiet machine; the stdio target starts a Node process per 2025 session). The files
// run one after the other: the server scenarios' stream checks wait for frames within fixed windows, and the client
// runs beside them would make those windows the thing measured.
export default mergeConfig(
  packageTestConfig({ include: ['src/**/*.test.ts'], testTimeout: 300_000, realServiceSuite: true }),
  defineConfig({ test: { fileParallelism: false } }),
);
