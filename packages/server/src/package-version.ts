import { createRequire } from 'node:module';

/**
 * This package's version, read from its `package.json` (the one place it is written). `../package.json` is the
 * package root from `src/` and from `dist/` alike; reading it at run time keeps the rest of the manifest out of the
 * bundle.
 */
export const packageVersion: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;
