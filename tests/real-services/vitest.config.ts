import { listedRealServiceTestConfig } from '../../tooling/vitest.base.js';

export default listedRealServiceTestConfig();
