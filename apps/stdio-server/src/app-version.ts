import { createRequire } from 'node:module';

/**
 * The version of `search-mcp`, read from its `package.json` (the one place it is written). `../package.json` is the
 * app's root from `src/` and from `dist/` alike; reading it at run time keeps the rest of the manifest out of the
 * bundle.
 */
export const appVersion: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
