import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const exampleConfig = resolve(here, '../../../../examples/mcp-servers.json');

/** The file a package's `bin` names (the CLI's devDependencies include every example server). */
function binOf(name: string): string {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = require(manifestPath) as { bin: Record<string, string> | string };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : (Object.values(manifest.bin)[0] as string);
  return join(dirname(manifestPath), bin);
}

interface Entry {
  command?: string;
  args?: string[];
  cwd?: string;
  [key: string]: unknown;
}

/**
 * `examples/mcp-servers.json` with every `npx -y <package> …` entry run as `node <the installed package's bin> …`, and
 * each `cwd` made absolute, written into `directory`: the same servers, names, order, permissions and variables, without
 * an npm process per server (three `npx` starts took most of a test's time on a busy 2-core machine). Only the test of
 * the example file as shipped starts it through `npx`.
 */
export async function writeLocalExampleConfig(directory: string, keep?: string[]): Promise<string> {
  const examples = dirname(exampleConfig);
  const config = JSON.parse(await readFile(exampleConfig, 'utf8')) as { mcpServers: Record<string, Entry> };
  const servers: Record<string, Entry> = {};
  for (const [id, entry] of Object.entries(config.mcpServers)) {
    if (keep && !keep.includes(id)) continue;
    const local: Entry = { ...entry };
    if (entry.command === 'npx') {
      const [, packageName = '', ...rest] = entry.args ?? [];
      local.command = process.execPath;
      local.args = [binOf(packageName), ...rest];
    } else if (entry.command === 'node') {
      local.command = process.execPath;
    }
    if (entry.cwd !== undefined) local.cwd = resolve(examples, entry.cwd);
    servers[id] = local;
  }
  const path = join(directory, keep ? `example-${keep.join('-')}.json` : 'example-local.json');
  await writeFile(path, JSON.stringify({ ...config, mcpServers: servers }));
  return path;
}
