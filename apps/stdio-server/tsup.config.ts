import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageBuildConfig } from '../../tooling/tsup.base.js';
import { writeThirdPartyNotices } from '../../tooling/third-party-notices.js';

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

// Inlined CommonJS modules (cross-spawn, the OpenTelemetry API) `require` Node's built-ins: an ES module has no
// `require` of its own, so every chunk gets one (esbuild renames a module's own `require` binding out of its way).
const requireShim =
  "import { createRequire as __searchMcpCreateRequire } from 'node:module';\nconst require = __searchMcpCreateRequire(import.meta.url);";

const requireHere = createRequire(import.meta.url);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export default packageBuildConfig({
  entry: ['src/cli.ts'],
  banner: { js: `#!/usr/bin/env node\n${requireShim}` },
  // tsup lets `noExternal` win over `external`: everything but the list above.
  noExternal: [new RegExp(`^(?!(?:${external.map(escapeRegExp).join('|')})(?:/|$))`)],
  external,
  metafile: true,
  esbuildOptions(options) {
    // The maps name every inlined file; their text stays in the packages it came from (a smaller install).
    options.sourcesContent = false;
  },
  onSuccess: async () => {
    // The process watchdog is a script the client manager spawns from beside its own module: here, the bundle.
    const clientManager = dirname(requireHere.resolve('@search-mcp/client-manager/package.json'));
    await copyFile(join(clientManager, 'dist', 'watchdog.cjs'), 'dist/watchdog.cjs');
    await writeThirdPartyNotices({ metafile: 'dist/metafile-esm.json', output: 'dist/THIRD-PARTY-NOTICES.md' });
  },
});
