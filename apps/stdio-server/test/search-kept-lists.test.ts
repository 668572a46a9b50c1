import { execFile } from 'node:child_process';
import { access, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureServerPath } from '@search-mcp/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `search` answers from the tool lists kept from earlier runs and starts only the servers without one; `--fresh`
// starts them all (README, "Discovery before the servers are up"). The fixture server writes a file when it
// starts (`--only-first-start`), so each run shows whether it was started.

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let directory: string;
let config: string;
let launches: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'search-mcp-kept-lists-'));
  launches = join(directory, 'launched');
  config = join(directory, 'config.json');
  const fixture = {
    command: process.execPath,
    args: [fixtureServerPath('stdio-fixture-server.mjs'), '--only-first-start', launches],
  };
  await writeFile(config, JSON.stringify({ mcpServers: { fixture } }));
  // Lists kept in this test's own state folder (the suites turn the default off), no pins.
  env = {
    ...process.env,
    SEARCH_MCP_TOOL_CACHE: 'on',
    SEARCH_MCP_STATE_DIR: join(directory, 'state'),
    SEARCH_MCP_PINNING: 'off',
  };
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function search(...args: string[]): Promise<{ code: number; results: string[] }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'search', 'echo a message back', '--json', '--config', config, ...args],
      { timeout: 60_000, env },
      (error, stdout) => {
        if (error) return reject(error);
        const parsed = JSON.parse(stdout) as { results: Array<{ toolKey: string }> };
        resolve({ code: 0, results: parsed.results.map((hit) => hit.toolKey) });
      },
    );
  });
}

const started = () =>
  access(launches).then(
    () => true,
    () => false,
  );

describe('search with kept tool lists', () => {
  it('starts a server without a kept list, answers from the kept list next time, and starts it again with --fresh', async () => {
    expect((await search()).results[0]).toBe('fixture:echo');
    expect(await started()).toBe(true);
    await unlink(launches);

    expect((await search()).results[0]).toBe('fixture:echo');
    expect(await started()).toBe(false);

    expect((await search('--fresh')).results[0]).toBe('fixture:echo');
    expect(await started()).toBe(true);
  }, 120_000);
});
