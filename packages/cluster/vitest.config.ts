import { packageTestConfig } from '../../tooling/vitest.base.js';

export default packageTestConfig();
