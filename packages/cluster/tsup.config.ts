import { packageBuildConfig } from '../../tooling/tsup.base.js';

export default packageBuildConfig({ entry: ['src/index.ts'] });
