import packageJson from '../package.json' with { type: 'json' };

/** This package's version, read from its `package.json` (the one place it is written) and inlined at build time. */
export const packageVersion: string = packageJson.version;
