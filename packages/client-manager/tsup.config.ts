import { packageBuildConfig } from '../../tooling/tsup.base.js';

// `supervisor.js` is run as its own process (see src/process/supervisor.js); it must sit beside `index.js`.
export default packageBuildConfig({
  entry: { index: 'src/index.ts', supervisor: 'src/process/supervisor.js' },
  dts: { entry: { index: 'src/index.ts' } },
});
