import { bundledAppBuildConfig } from '../../tooling/tsup.base.js';

/**
 * search-mcp-http is one bundle, as the CLI is (README of this app, "How it is built"): the libraries, fastify, zod,
 * the MCP SDKs and OpenTelemetry are inlined, because a start spent most of its CPU resolving and loading their
 * modules (`pnpm bench:http-start`: 0.95 s of CPU to listening unbundled, 0.53 s bundled). Left outside, each one of
 * this package's `dependencies` (or its optional peer): what a library loads with `require` (lunr, the keyring
 * binding), native code, and what loads on demand (undici, the OpenAI SDK, ioredis for `cluster`, the opt-in hybrid
 * ranker). ioredis must stay outside: inlined, the `import('ioredis')` of the cluster package gave no constructor
 * under `Redis` (a CommonJS module whose exports are its class).
 * `local-console` is the subpath `@search-mcp/http/local-console` (what `search-mcp ui` starts); its declaration file
 * comes from the root's `build:types`. The web console's files are copied into dist/console after this build
 * (`scripts/copy-console.mjs`).
 */
const external = ['lunr', '@napi-rs/keyring', 'undici', 'openai', 'ioredis', '@search-mcp/embeddings'];

export default bundledAppBuildConfig({
  entry: ['src/cli.ts', 'src/local-console.ts'],
  external,
});
