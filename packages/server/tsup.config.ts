import { packageBuildConfig } from '../../tooling/tsup.base.js';

export default packageBuildConfig();
