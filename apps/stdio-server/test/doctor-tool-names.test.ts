/**
 * `search-mcp doctor` on tool names, through the built binary and real servers: renames not applied because the
 * name is taken, overrides of tools the server does not have, and with `exposure.names: "original"` a name two
 * servers share.
 */
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
const fixtureServer = fixtureServerPath('stdio-fixture-server.mjs');

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
    });
  });
}

describe('search-mcp doctor: tool names', () => {
  let directory: string;
  let config: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-doctor-names-'));
    config = join(directory, 'config.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memoryServer],
            env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') },
            tools: {
              // Now shares `echo` with the fixture: both are listed prefixed.
              read_graph: { name: 'echo' },
              // Taken by another tool of the server: not applied.
              search_nodes: { name: 'open_nodes' },
              // No such tool.
              forget: { description: 'Forget everything' },
            },
          },
          fixture: { command: process.execPath, args: [fixtureServer] },
        },
        exposure: { mode: 'proxy', names: 'original' },
      }),
    );
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('warns about renames not applied, overrides of missing tools and names two servers share', async () => {
    const json = await runCli(['doctor', '--json', '--config', config]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { warnings: string[] };
    expect(report.warnings).toEqual([
      'mcpServers.memory.tools.search_nodes.name: "open_nodes" would also be the name of "open_nodes" of this server; "search_nodes" keeps its own name',
      'mcpServers.memory.tools.forget: server "memory" lists no tool of this name; the override does nothing',
      'exposure.names: "echo" is a tool of "memory" and "fixture"; they are listed as memory__echo and fixture__echo (rename one with mcpServers.<server>.tools)',
    ]);

    const text = await runCli(['doctor', '--config', config]);
    const out = text.stdout.replace(/\s+/g, ' ');
    expect(out).toContain('mode proxy, original tool names');
    expect(out).toContain('"echo" is a tool of "memory" and "fixture"');
  });
});
