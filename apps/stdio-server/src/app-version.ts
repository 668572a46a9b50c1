import packageJson from '../package.json' with { type: 'json' };

/** The version of `search-mcp`, read from its `package.json` (the one place it is written), inlined at build time. */
export const appVersion: string = packageJson.version;
