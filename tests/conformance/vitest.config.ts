import { packageTestConfig } from '../../tooling/vitest.base.js';

// One run of the suite per revision and target, in beforeAll (about a minute on a quiet machine; the stdio target
// starts a Node process per 2025 session).
export default packageTestConfig({ include: ['src/**/*.test.ts'], testTimeout: 300_000 });
