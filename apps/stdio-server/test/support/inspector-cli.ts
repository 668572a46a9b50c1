import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const cli = resolve(here, '../../dist/cli.js');

/**
 * The MCP Inspector's CLI client (`cli/build/index.js` of @modelcontextprotocol/inspector, what `mcp-inspector --cli`
 * spawns after parsing its own options): run directly, it spares each run the launcher's node process.
 */
const inspectorCli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'cli/build/index.js',
);

/**
 * One run of the Inspector CLI against the built `search-mcp` over stdio, with `config` as its config
 * (`SEARCH_MCP_CONFIG`); `args` are the Inspector's (`--method tools/list`, …). Resolves with its stdout.
 */
export async function runInspector(config: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [inspectorCli, process.execPath, cli, ...args], {
    cwd: repoRoot,
    env: { ...process.env, SEARCH_MCP_CONFIG: config },
    timeout: 60_000,
  });
  return stdout;
}
