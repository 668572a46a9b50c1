import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface EmbeddingsInstallOptions {
  /** This runtime's own built file; default the running one. */
  runtimeFile?: string;
}

/**
 * The exact command that installs `@search-mcp/embeddings` (the `hybrid` strategy's ranker and its ~48 MB MiniLM
 * model) next to this runtime. The README's install leaves it out (README, "Install"), so the command names the
 * folder Search MCP was installed into: the tarball the README packed into `<folder>/packs` when it is there, the
 * registry's package otherwise; `-g` for a global install. Run from a clone, the workspace already has it: building
 * is what is missing.
 */
export function embeddingsInstallCommand(options: EmbeddingsInstallOptions = {}): string {
  const runtimeFile = options.runtimeFile ?? fileURLToPath(import.meta.url);
  const marker = `${sep}node_modules${sep}`;
  const at = runtimeFile.indexOf(marker);
  if (at < 0) return 'npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 build (in the clone Search MCP runs from)';
  const folder = runtimeFile.slice(0, at);
  // npm's global folder is `<prefix>/lib/node_modules` (`<prefix>/node_modules` on Windows, beside `npm.cmd`).
  const global =
    (folder.endsWith(`${sep}lib`) && existsSync(join(dirname(folder), 'bin'))) || existsSync(join(folder, 'npm.cmd'));
  if (global) return 'npm install --global @search-mcp/embeddings';
  const tarball = packedTarball(join(folder, 'packs'));
  return `npm install --prefix ${quote(folder)} --no-audit --no-fund ${tarball ?? '@search-mcp/embeddings'}`;
}

function packedTarball(packs: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(packs);
  } catch {
    return undefined;
  }
  const name = names
    .filter((entry) => /^search-mcp-embeddings-.+\.tgz$/.test(entry))
    .sort()
    .at(-1);
  return name === undefined ? undefined : quote(join(packs, name));
}

/** A path as one shell word (quoted only when it holds a space or a quote). */
function quote(path: string): string {
  return /[\s'"]/.test(path) ? `"${path.replace(/"/g, '\\"')}"` : path;
}
