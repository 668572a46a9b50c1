import { packageTestConfig } from '../../tooling/vitest.base.js';

// Most of these files wait on the binaries, backends and servers they start: two at a time (tooling/vitest.base.ts).
export default packageTestConfig({ filesAtOnce: 2 });
