import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { declaredAs, installedCopyOf, sdkGenerationTwo, sharedPackages, versionOfCopy } from './shared-packages.js';
import { binsOf, type PackageManifest, readManifest } from './workspace.js';

const run = promisify(execFile);
const { packages } = inject('packResult');
const thisPackage = readManifest(join(import.meta.dirname, '..'));
const everythingVersion = thisPackage.devDependencies?.['@modelcontextprotocol/server-everything'];

/**
 * The environment of an npm or bin run in the install folder: the caller's, without the `npm_*` variables pnpm sets
 * for the script running this test (they would point npm at this workspace).
 */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) environment[key] = value;
  return { ...environment, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' };
}

let installDirectory = '';
const binPath = (name: string) => join(installDirectory, 'node_modules', '.bin', name);
const installedManifest = (name: string) =>
  JSON.parse(readFileSync(join(installDirectory, 'node_modules', name, 'package.json'), 'utf8')) as PackageManifest;
const configPath = () => join(installDirectory, 'search-mcp.json');

beforeAll(async () => {
  installDirectory = mkdtempSync(join(tmpdir(), 'search-mcp-install-'));
  writeFileSync(
    join(installDirectory, 'package.json'),
    `${JSON.stringify({ name: 'install-check', private: true })}\n`,
  );
  // As a user would: the tarballs (what a release publishes) into an empty folder, third-party packages from the
  // registry (or npm's cache), plus a real MCP server to connect to.
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      ...packages.map((entry) => entry.tarball),
      `@modelcontextprotocol/server-everything@${everythingVersion}`,
    ],
    { cwd: installDirectory, env: cleanEnvironment(), maxBuffer: 64 * 1024 * 1024 },
  );
  const everything = join(installDirectory, 'node_modules', '@modelcontextprotocol', 'server-everything');
  const everythingBin = Object.values(binsOf(JSON.parse(readFileSync(join(everything, 'package.json'), 'utf8'))))[0];
  const config = {
    mcpServers: { everything: { command: process.execPath, args: [join(everything, everythingBin ?? '')] } },
    auth: { allowAnonymous: true },
  };
  writeFileSync(configPath(), `${JSON.stringify(config, null, 2)}\n`);
});

afterAll(() => {
  if (installDirectory) rmSync(installDirectory, { recursive: true, force: true });
});

describe('the packed packages installed with npm into an empty folder', () => {
  it('installs each package once, at its packed version, sharing one copy of each SDK package and of zod', () => {
    // Every copy of a shared package that something in the install loads, with who loads it.
    const copies = new Map<string, Map<string, string[]>>();
    const noteCopy = (name: string, fromDirectory: string, who: string) => {
      const copy = installedCopyOf(name, fromDirectory);
      if (copy === undefined) return;
      const byCopy = copies.get(name) ?? new Map<string, string[]>();
      byCopy.set(copy, [...(byCopy.get(copy) ?? []), who]);
      copies.set(name, byCopy);
    };
    for (const packed of packages) {
      expect(installedManifest(packed.name).version).toBe(packed.version);
      const manifest = installedManifest(packed.name);
      const directory = join(installDirectory, 'node_modules', packed.name);
      for (const name of sharedPackages)
        if (declaredAs(manifest, name) !== 'undeclared') noteCopy(name, directory, packed.name);
      // No nested copy of another workspace package (a release must not install two @search-mcp/shared).
      for (const other of packages) {
        expect(existsSync(join(installDirectory, 'node_modules', packed.name, 'node_modules', other.name))).toBe(false);
      }
    }
    // The 2.x packages bring core and zod: theirs must be the same copies ours load.
    for (const name of sdkGenerationTwo) {
      for (const [copy] of copies.get(name) ?? []) {
        for (const shared of ['@modelcontextprotocol/core', 'zod']) noteCopy(shared, copy, `${name} (${copy})`);
      }
    }
    const duplicated = [...copies].flatMap(([name, byCopy]) =>
      byCopy.size === 1
        ? []
        : [
            `${name}: ${[...byCopy].map(([copy, who]) => `${versionOfCopy(copy)} at ${copy} for ${who.join(', ')}`).join('; ')}`,
          ],
    );
    expect(duplicated).toEqual([]);
    // Not a vacuous pass: the published packages load the 2.x SDK, its core and zod.
    expect([...copies.keys()]).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod']),
    );
  });

  // One node process imports every library package by its name, in turn, and reports each one's exports or its
  // error: a start of node with these packages costs a second or more of CPU, and the import of one package does not
  // change how another resolves (each resolves from its own folder in the install).
  let imported: Promise<Record<string, { exports?: string[]; error?: string }>> | undefined;
  const importAll = () => {
    const names = packages
      .filter((entry) => entry.relativeDirectory.startsWith('packages/'))
      .map((entry) => entry.name);
    const script = `const report = {};
for (const name of ${JSON.stringify(names)}) {
  try { report[name] = { exports: Object.keys(await import(name)) }; }
  catch (error) { report[name] = { error: String(error) }; }
}
console.log(JSON.stringify(report));`;
    imported ??= run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: installDirectory,
      env: cleanEnvironment(),
    }).then(({ stdout }) => JSON.parse(stdout) as Record<string, { exports?: string[]; error?: string }>);
    return imported;
  };

  it.each(packages.filter((entry) => entry.relativeDirectory.startsWith('packages/')))(
    'imports $name by its name, with its exports',
    async ({ name }) => {
      const report = (await importAll())[name];
      expect(report?.error).toBeUndefined();
      expect(report?.exports?.length).toBeGreaterThan(0);
    },
  );

  it.each(
    packages.flatMap((entry) =>
      Object.keys(binsOf(readManifest(join(entry.unpacked, 'package')))).map((bin) => ({ bin, packed: entry })),
    ),
  )('$bin --version prints the version of its package', async ({ bin, packed }) => {
    const { stdout } = await run(binPath(bin), ['--version'], { cwd: installDirectory, env: cleanEnvironment() });
    expect(stdout.trim()).toBe(packed.version);
  });

  it('search-mcp doctor connects to a real server from the install', async () => {
    const { stdout } = await run(binPath('search-mcp'), ['doctor', '--config', configPath()], {
      cwd: installDirectory,
      env: cleanEnvironment(),
    });
    expect(stdout).toMatch(/^everything\s+running\s+\d+/m);
  });

  it('search-mcp serves a real stdio MCP session', async () => {
    const client = new Client({ name: 'packaging-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: binPath('search-mcp'),
      args: ['serve', '--config', configPath()],
      cwd: installDirectory,
      env: cleanEnvironment() as Record<string, string>,
      stderr: 'ignore',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['tool_discovery', 'tool_execute']));
      const found = await client.callTool({ name: 'tool_discovery', arguments: { query: 'echo back a message' } });
      const results = (found.structuredContent as { results: { toolKey: string }[] }).results;
      expect(results.map((result) => result.toolKey)).toContain('everything:echo');
      const echoed = await client.callTool({
        name: 'tool_execute',
        arguments: { toolKey: 'everything:echo', arguments: { message: 'from a packed install' } },
      });
      expect(JSON.stringify(echoed.content)).toContain('from a packed install');
    } finally {
      await client.close();
    }
  });

  it('search-mcp-http serves MCP over Streamable HTTP', async () => {
    const server = spawn(binPath('search-mcp-http'), ['--host', '127.0.0.1', '--port', '0', '--config', configPath()], {
      cwd: installDirectory,
      env: cleanEnvironment(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await listeningUrl(server);
      const root = (await (await fetch(`${url}/`)).json()) as { status: string; version: string };
      expect(root.version).toBe(installedManifest('@search-mcp/http').version);
      const client = new Client({ name: 'packaging-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('tool_discovery');
      } finally {
        await client.close();
      }
    } finally {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
  });
});

/** The URL the HTTP app logs once it listens (a JSON line on stderr); rejects if it exits first. */
function listeningUrl(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const reader = createInterface({ input: server.stderr! });
    reader.on('line', (line) => {
      lines.push(line);
      try {
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg?.includes('listening') && record.url) resolve(record.url);
      } catch {
        // Not a log record (e.g. the first-start token notice).
      }
    });
    server.once('exit', (code) => reject(new Error(`search-mcp-http exited (${code}): ${lines.join('\n')}`)));
  });
}
