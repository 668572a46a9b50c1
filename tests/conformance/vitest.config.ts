import { packageTestConfig } from '../../tooling/vitest.base.js';

// One run of the suite per revision and target, in beforeAll (about half a minute on a quiet machine).
export default packageTestConfig({ include: ['src/**/*.test.ts'], testTimeout: 180_000 });
