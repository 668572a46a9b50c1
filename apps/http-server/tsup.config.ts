import { readFile, writeFile } from 'node:fs/promises';
import ts from 'typescript';
import { packageBuildConfig } from '../../tooling/tsup.base.js';

// `local-console` is the subpath `@search-mcp/http/local-console` (what `search-mcp ui` starts). The web console's
// files are copied into dist/console after this build (`scripts/copy-console.mjs`).
export default packageBuildConfig({
  entry: ['src/cli.ts', 'src/local-console.ts'],
  banner: { js: '#!/usr/bin/env node' },
  onSuccess: writeLocalConsoleDeclarations,
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
