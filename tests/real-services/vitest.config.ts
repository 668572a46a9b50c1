import { packageTestConfig } from '../../tooling/vitest.base.js';

// The files of tooling/real-service-tests.ts, from the repository root. Most of their time is waiting on the
// services and processes they start: two files at a time.
export default packageTestConfig({ realServiceSuite: true, filesAtOnce: 2 });
