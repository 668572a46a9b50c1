import { bundledAppBuildConfig } from '../../tooling/tsup.base.js';

/**
 * The CLI is one bundle (README of this app, "How it is built"): Search MCP's libraries and their ES-module
 * dependencies (zod, both MCP SDKs) are inlined, because Node spends most of a one-shot command's start in loading
 * ~250 small ES modules, and one chunk per command loads in a fraction of that. Left outside, resolved from this
 * package like any dependency (so each is one of its `dependencies`):
 * - what a library loads lazily with `require` (lunr, the keyring binding): esbuild cannot see through
 *   `createRequire`;
 * - native or file-relative code (the keyring binding, `open`'s scripts), and what a command loads only on demand
 *   (undici, the OpenAI SDK, the `ui` command's HTTP app, the opt-in hybrid ranker).
 * The libraries stay unbundled packages of their own for hosts that import them (tests/packaging checks both).
 */
const external = ['lunr', '@napi-rs/keyring', 'undici', 'openai', 'open', '@search-mcp/http', '@search-mcp/embeddings'];

export default bundledAppBuildConfig({ entry: ['src/cli.ts'], external });
