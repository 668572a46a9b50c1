import { packageBuildConfig } from '../../tooling/tsup.base.js';

export default packageBuildConfig({ entry: ['src/index.ts', 'src/node.ts', 'src/early-config.ts'] });
