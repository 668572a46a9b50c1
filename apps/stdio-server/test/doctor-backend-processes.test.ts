import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const memoryServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
    });
  });
}

// docs/scale-out.md, "Backends per replica": every replica runs its own stdio servers; remote ones are connections.
describe('search-mcp doctor counts the backend processes a config starts', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-doctor-processes-'));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function writeConfig(name: string, extra: Record<string, unknown>): Promise<string> {
    const path = join(directory, `${name}.json`);
    const memory = (file: string) => ({
      command: process.execPath,
      args: [memoryServer],
      env: { MEMORY_FILE_PATH: join(directory, file) },
    });
    await writeFile(
      path,
      JSON.stringify({
        mcpServers: {
          memory: memory('memory.jsonl'),
          notes: { ...memory('notes.jsonl'), description: 'A second copy, another file' },
          // Disabled: starts nothing.
          archive: { ...memory('archive.jsonl'), enabled: false },
          // Nothing listens there: a remote server is a connection, whether it comes up or not.
          wiki: { url: 'http://127.0.0.1:9/mcp', oauth: false },
          tracker: { url: 'http://127.0.0.1:7/mcp', identity: 'per-user' },
        },
        ...extra,
      }),
    );
    return path;
  }

  it('per process without cluster, and per replica with it', async () => {
    const single = await runCli(['doctor', '--config', await writeConfig('single', {})]);
    expect(single.stdout).toContain('Backend processes: 2 (stdio: memory, notes)\n');
    expect(single.stdout).toContain('  1 remote server, no process: wiki\n');
    expect(single.stdout).toContain('  per-user, no process: tracker (one connection per signed-in user)\n');

    const clustered = await writeConfig('clustered', { cluster: { redis: { url: 'redis://127.0.0.1:6399/0' } } });
    const text = await runCli(['doctor', '--config', clustered]);
    expect(text.stdout).toContain('Backend processes: 2 per replica (× replicas) (stdio: memory, notes)\n');
    expect(text.stdout).toContain('  1 remote server, no process: wiki (one connection per replica, shared by URL)\n');

    const json = JSON.parse((await runCli(['doctor', '--json', '--config', clustered])).stdout);
    expect(json.backendProcesses).toEqual({
      perReplica: 2,
      stdioServers: ['memory', 'notes'],
      remoteServers: ['wiki'],
      perUserServers: ['tracker'],
      replicated: true,
    });
  });
});
