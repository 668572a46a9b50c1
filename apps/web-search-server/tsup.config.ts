import { bundledAppBuildConfig } from '../../tooling/tsup.base.js';

/**
 * search-mcp-web-search is one bundle, as the other apps are (README of this app, "How it is built"): its libraries,
 * zod and the MCP server SDK are inlined, because a start spent most of its CPU resolving and loading their modules.
 * Left outside, and so this package's `dependencies`, as in the other apps: lunr (the catalog loads it with
 * `createRequire`, which a bundler cannot follow), undici (inlined, its optional SQLite cache store would add an import
 * of `node:sqlite`) and the OpenAI SDK.
 */
export default bundledAppBuildConfig({ entry: ['src/cli.ts'], external: ['lunr', 'undici', 'openai'] });
