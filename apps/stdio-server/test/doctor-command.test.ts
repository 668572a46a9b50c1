import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const memoryServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const modernServer = fixtureServerPath('modern-server.mjs');
const featureServer = fixtureServerPath('feature-server.mjs');

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
    });
  });
}

describe('search-mcp doctor', () => {
  let directory: string;
  let config: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-doctor-'));
    config = join(directory, 'config.json');
    const memory = { command: process.execPath, args: [memoryServer] };
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          memory: { ...memory, env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') } },
          // The same server again under another name, with a mistyped key.
          notes: { ...memory, enviroment: { MEMORY_FILE_PATH: join(directory, 'notes.jsonl') } },
          // A file merged from a client that lists Search MCP itself.
          'search-mcp': { command: 'npx', args: ['-y', '@search-mcp/cli'] },
        },
        search: { strategy: 'hybrid', hybrid: { cacheDirectory: join(directory, 'vectors') } },
      }),
    );
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('warns on unknown keys, duplicates and itself, shows protocol versions and whether hybrid search works', async () => {
    const text = await runCli(['doctor', '--config', config]);
    expect(text.code).toBe(0);
    const out = text.stdout;
    expect(out).toContain('mcpServers.notes.enviroment: unknown key, ignored; did you mean "env"?');
    expect(out).toContain('mcpServers["search-mcp"]: skipped: it runs Search MCP itself');
    expect(out.replace(/\s+/g, ' ')).toContain('mcpServers: "memory", "notes" are the same server');
    expect(out).toMatch(/memory +running +9 +\d+ ms +\d{4}-\d{2}-\d{2} \(legacy\)/);
    expect(out).toContain('Hybrid search (search.strategy or a project uses "hybrid"):');
    expect(out).toMatch(/model \S+: loaded, state ready/);
    expect(out).toContain('vectors in memory: 18');
    expect(out).toMatch(/vector cache: \S+vectors\S*: 18 vectors, [\d.]+ KB in \d+ files?/);
    expect(text.stderr).toContain('building the vectors of 18 tools for hybrid search');

    // --json carries the same facts; this second run reads the vectors from the cache.
    const json = await runCli(['doctor', '--json', '--config', config]);
    const report = JSON.parse(json.stdout) as {
      warnings: string[];
      duplicates: string[][];
      servers: Array<{ id: string; protocolVersion?: string }>;
      hybridSearch: {
        ready: boolean;
        status: { modelLoaded: boolean; lastBuild: { fromDisk: number }; cache: { vectors: number } };
      };
    };
    expect(report.duplicates).toEqual([['memory', 'notes']]);
    // Unknown key, Search MCP itself, the duplicate servers, and the resource both copies of server-memory list.
    expect(report.warnings).toHaveLength(4);
    expect(report.warnings[3]).toMatch(
      /^resources: "memory:\/\/\S+" is listed by "memory" and "notes"; "memory" answers/,
    );
    expect(report.servers.map((server) => server.protocolVersion)).toEqual([
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    ]);
    expect(report.hybridSearch).toMatchObject({
      ready: true,
      status: { modelLoaded: true, lastBuild: { fromDisk: 18 } },
    });
    expect(report.hybridSearch.status.cache.vectors).toBeGreaterThanOrEqual(18);
    expect(json.stderr).toBe('');
    // Loading the model and embedding takes seconds, more on a loaded 2-core CI machine.
  }, 180_000);

  // One config and one text and one --json run for two facts of the server table: a resource URI two servers list,
  // and the protocol revision and era of each backend (each doctor run starts every backend of its config).
  it('warns when two servers list the same resource URI, naming the one that answers, and shows the protocol revision and era each backend was reached in, 2026-07-28 included', async () => {
    const config = join(directory, 'shared-uri-and-eras.json');
    const server = (name: string) => ({
      command: process.execPath,
      args: [featureServer, '--name', name, '--shared-uri', 'shared://doc'],
    });
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          alpha: server('alpha'),
          beta: server('beta'),
          modern: { command: process.execPath, args: [modernServer] },
          memory: {
            command: process.execPath,
            args: [memoryServer],
            env: { MEMORY_FILE_PATH: join(directory, 'e.jsonl') },
          },
        },
      }),
    );
    const text = await runCli(['doctor', '--config', config]);
    expect(text.code).toBe(0);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(
      'resources: "shared://doc" is listed by "alpha" and "beta"; "alpha" answers it (first in config order)',
    );
    expect(text.stdout).toMatch(/modern +running +\d+ +\d+ ms +2026-07-28 \(modern\)/);
    expect(text.stdout).toMatch(/memory +running +9 +\d+ ms +2025-\d{2}-\d{2} \(legacy\)/);
    const json = await runCli(['doctor', '--json', '--config', config]);
    const report = JSON.parse(json.stdout) as {
      resourceDuplicates: Array<{ uri: string; serverIds: string[] }>;
      servers: Array<{ id: string; protocolVersion?: string; protocolEra?: string }>;
    };
    expect(report.resourceDuplicates).toEqual([{ uri: 'shared://doc', serverIds: ['alpha', 'beta'] }]);
    expect(
      report.servers
        .filter(({ id }) => id === 'modern' || id === 'memory')
        .map(({ id, protocolVersion, protocolEra }) => ({ id, protocolVersion, protocolEra })),
    ).toEqual([
      { id: 'modern', protocolVersion: '2026-07-28', protocolEra: 'modern' },
      { id: 'memory', protocolVersion: expect.stringMatching(/^2025-/), protocolEra: 'legacy' },
    ]);
  }, 120_000);

  it('says a config without servers has none, and how to add some', async () => {
    const empty = join(directory, 'empty.json');
    await writeFile(empty, JSON.stringify({ mcpServers: {} }));
    const text = await runCli(['doctor', '--config', empty]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`There are no servers in ${empty}. Add some: search-mcp init imports the servers`);
    expect(text.stdout).not.toContain('All servers are running');
    expect(text.stdout).not.toContain('less than direct');
    const json = JSON.parse((await runCli(['doctor', '--json', '--config', empty])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ config: empty, servers: [], problem: expect.stringContaining('search-mcp init') });
  });
});
