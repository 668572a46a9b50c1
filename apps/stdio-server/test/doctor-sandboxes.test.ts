import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const memoryServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [cli, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      done({ code: typeof code === 'number' ? code : -1, stdout, stderr });
    });
  });
}

describe.runIf(process.platform === 'linux')('search-mcp doctor with a sandboxed server', () => {
  let directory: string;
  let config: string;
  let data: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'search-mcp-doctor-sandbox-'));
    data = join(directory, 'data');
    await mkdir(data);
    config = join(directory, 'config.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memoryServer],
            env: { MEMORY_FILE_PATH: join(data, 'memory.jsonl') },
            sandbox: { kind: 'bubblewrap', paths: [resolve(repository), { path: data, writable: true }] },
          },
        },
      }),
    );
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('runs the server in bubblewrap and shows its sandbox: kind, network, paths', async () => {
    const text = await runCli(['doctor', '--config', config]);
    expect(text.stderr + text.stdout).toContain('All servers are running.');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `Sandboxes:\n  memory: bubblewrap, no network, paths ${resolve(repository)} (read-only), ${data} (writable)`,
    );
    const json = JSON.parse((await runCli(['doctor', '--json', '--config', config])).stdout);
    expect(json.sandboxes).toEqual([
      {
        server: 'memory',
        kind: 'bubblewrap',
        network: false,
        paths: [
          { path: resolve(repository), writable: false },
          { path: data, writable: true },
        ],
      },
    ]);
    expect(json.servers[0]).toMatchObject({ id: 'memory', state: 'running', sandbox: 'bubblewrap' });
  });
});
