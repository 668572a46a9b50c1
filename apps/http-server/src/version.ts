import { readFileSync } from 'node:fs';

/**
 * This app's version, read from its `package.json` so it is written in one place. The path is relative to this module:
 * `src/version.ts` in tests and `dist/cli.js` in the build are both one folder below the package root.
 */
export const packageVersion: string = (() => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  if (typeof manifest.version !== 'string') throw new Error('apps/http-server/package.json has no version');
  return manifest.version;
})();
