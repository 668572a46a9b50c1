import { copyFile } from 'node:fs/promises';
import { packageBuildConfig } from '../../tooling/tsup.base.js';

// `watchdog.cjs` runs as its own process (see src/process/watchdog.cjs) and must sit beside `index.js`. It is copied
// as it is: plain CommonJS with Node built-ins only, nothing to bundle.
export default packageBuildConfig({
  onSuccess: async () => {
    await copyFile('src/process/watchdog.cjs', 'dist/watchdog.cjs');
  },
});
