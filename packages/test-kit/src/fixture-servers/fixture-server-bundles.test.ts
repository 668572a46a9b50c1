import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureScriptsDirectory } from './fixture-server-bundles.js';
import { fixtureServerNames, fixtureServersDirectory } from './fixture-server-paths.js';

describe('which copy of the fixture servers starts', () => {
  let root: string;
  let sources: string;
  let bundles: string;
  const names = ['a-server.mjs', 'b-server.mjs'];

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'fixture-bundles-'));
    sources = join(root, 'src');
    bundles = join(root, 'dist');
    await mkdir(sources);
    // The sources an hour old, as after a checkout long before the build.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of [...names, 'shared-module.mjs']) {
      await writeFile(join(sources, name), '');
      await utimes(join(sources, name), hourAgo, hourAgo);
    }
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function build(only = names): Promise<void> {
    await mkdir(bundles, { recursive: true });
    for (const name of only) await writeFile(join(bundles, name), '');
  }

  it('the sources when nothing is built', () => {
    expect(fixtureScriptsDirectory(sources, bundles, names)).toBe(sources);
  });

  it('the bundles once every one is built after the sources', async () => {
    await build();
    expect(fixtureScriptsDirectory(sources, bundles, names)).toBe(bundles);
  });

  it('the sources when a bundle is missing', async () => {
    await build(['a-server.mjs']);
    expect(fixtureScriptsDirectory(sources, bundles, names)).toBe(sources);
  });

  it('the sources again once any source, a shared module too, is edited after the build', async () => {
    await build();
    const later = new Date(Date.now() + 60_000);
    await utimes(join(sources, 'shared-module.mjs'), later, later);
    expect(fixtureScriptsDirectory(sources, bundles, names)).toBe(sources);
  });
});

/** The first line a stdio fixture writes to stdout after `initialize`: its answer. */
function initializeAnswer(script: string): Promise<unknown> {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'ignore'] });
  const request = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1' } },
  };
  child.stdin.write(`${JSON.stringify(request)}\n`);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      output += text;
      const line = output.split('\n').find((entry) => entry.includes('"id":1'));
      if (line) {
        child.kill();
        resolve(JSON.parse(line));
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before answering: ${output}`)));
  });
}

describe('the bundles this package builds', () => {
  const bundleDirectory = fileURLToPath(new URL('../../dist/fixture-servers/', import.meta.url));

  it('exist for every fixture server (turbo builds this package before its tests)', () => {
    const missing = fixtureServerNames.filter((name) => !existsSync(join(bundleDirectory, name)));
    expect(missing, 'run `npx -y pnpm@10.34.9 build` first').toEqual([]);
  });

  it.each(['stdio-fixture-server.mjs', 'feature-server.mjs', 'modern-server.mjs'] as const)(
    '%s answers initialize as its source does',
    async (name) => {
      const [bundled, source] = await Promise.all([
        initializeAnswer(join(bundleDirectory, name)),
        initializeAnswer(join(fixtureServersDirectory, name)),
      ]);
      // The same answer, whatever it is (modern-server.mjs refuses a 2025 version unless started with `--both`).
      expect(bundled).toEqual(source);
    },
  );
});
