import { readFile, writeFile } from 'node:fs/promises';
import ts from 'typescript';
import { bundledAppBuildConfig } from '../../tooling/tsup.base.js';

/**
 * search-mcp-http is one bundle, as the CLI is (README of this app, "How it is built"): the libraries, fastify, zod,
 * the MCP SDKs and OpenTelemetry are inlined, because a start spent most of its CPU resolving and loading their
 * modules (`pnpm bench:http-start`: 0.95 s of CPU to listening unbundled, 0.53 s bundled). Left outside, each one of
 * this package's `dependencies` (or its optional peer): what a library loads with `require` (lunr, the keyring
 * binding), native code, and what loads on demand (undici, the OpenAI SDK, ioredis for `cluster`, the opt-in hybrid
 * ranker). ioredis must stay outside: inlined, the `import('ioredis')` of the cluster package gave no constructor
 * under `Redis` (a CommonJS module whose exports are its class).
 * `local-console` is the subpath `@search-mcp/http/local-console` (what `search-mcp ui` starts). The web console's
 * files are copied into dist/console after this build (`scripts/copy-console.mjs`).
 */
const external = ['lunr', '@napi-rs/keyring', 'undici', 'openai', 'ioredis', '@search-mcp/embeddings'];

export default bundledAppBuildConfig({
  entry: ['src/cli.ts', 'src/local-console.ts'],
  external,
  afterBuild: writeLocalConsoleDeclarations,
});

/**
 * The one declaration file this app publishes, for the subpath's importers. Its exports are annotated, so the file
 * alone says its types (`transpileDeclaration`, no type check of the whole app: `tsc --noEmit` checks it).
 */
async function writeLocalConsoleDeclarations(): Promise<void> {
  const source = await readFile('src/local-console.ts', 'utf8');
  const { outputText, diagnostics } = ts.transpileDeclaration(source, {
    fileName: 'local-console.ts',
    compilerOptions: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
    reportDiagnostics: true,
  });
  if (diagnostics !== undefined && diagnostics.length > 0) {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText ?? '', '\n'));
  }
  await writeFile('dist/local-console.d.ts', outputText);
}
