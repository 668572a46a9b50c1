import { packageBuildConfig } from '../../tooling/tsup.base.js';

export default packageBuildConfig({ entry: ['src/cli.ts'], banner: { js: '#!/usr/bin/env node' } });
