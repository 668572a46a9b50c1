import { createRequire } from 'node:module';

/** This package's version, read from its `package.json` (the one place it is written; `dist/` sits beside it). */
export const packageVersion: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;
