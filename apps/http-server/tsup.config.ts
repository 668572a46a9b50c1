import { packageBuildConfig } from '../../tooling/tsup.base.js';

// `local-console` is the subpath `@search-mcp/http/local-console` (what `search-mcp ui` starts). The web console's
// files are copied into dist/console after this build (`scripts/copy-console.mjs`).
export default packageBuildConfig({
  entry: ['src/cli.ts', 'src/local-console.ts'],
  banner: { js: '#!/usr/bin/env node' },
});
