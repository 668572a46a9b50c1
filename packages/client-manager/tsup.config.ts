import { copyFile } from 'node:fs/promises';
import { packageBuildConfig } from '../../tooling/tsup.base.js';

// `watchdog.cjs` runs as its own process (see src/process/watchdog.cjs) and must sit beside `index.js`. It is copied
// as it is: plain CommonJS with Node built-ins only, nothing to bundle.
// Its declarations are rolled up per entry point by `pnpm build:types` (tooling/build-types.ts says why).
// `prestart` is a second entry that must load nothing but Node built-ins (see src/prestart.ts); what it shares with
// `index` lands in a common chunk, so both see the same classes.
export default packageBuildConfig({
  entry: ['src/index.ts', 'src/prestart.ts'],
  onSuccess: async () => {
    await copyFile('src/process/watchdog.cjs', 'dist/watchdog.cjs');
  },
});
