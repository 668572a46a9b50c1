import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { execForm, parseDockerfile } from './dockerfile.js';
import { readManifest, repositoryRoot, workspacePackages } from './workspace.js';

const run = promisify(execFile);
const dockerfile = parseDockerfile(readFileSync(join(repositoryRoot, 'Dockerfile'), 'utf8'));
const ignored = readFileSync(join(repositoryRoot, '.dockerignore'), 'utf8')
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const pinnedPnpm = readManifest(repositoryRoot).packageManager?.replace(/^pnpm@/, '');
const build = dockerfile.stages[0];
const runtime = dockerfile.stages.at(-1);
const lastOf = (keyword: string) => runtime?.instructions.filter((entry) => entry.keyword === keyword).at(-1);

describe('Dockerfile (read without an engine)', () => {
  it('builds in one stage and runs in another, both on Node 20 bookworm-slim', () => {
    expect(dockerfile.stages.map((stage) => stage.name)).toEqual(['build', 'runtime']);
    for (const stage of dockerfile.stages) expect(stage.image).toBe('node:20-bookworm-slim');
  });

  it('builds with the pnpm the repository pins, from the lockfile, and packs what it ships', () => {
    expect(dockerfile.globalArguments.PNPM_VERSION).toBe(pinnedPnpm);
    const commands = build?.instructions.filter((entry) => entry.keyword === 'RUN').map((entry) => entry.value) ?? [];
    const pnpm = 'npx -y pnpm@${PNPM_VERSION}';
    expect(commands).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${pnpm} install --offline --frozen-lockfile`),
        expect.stringMatching(
          /turbo run build .*--filter=@search-mcp\/cli\.\.\. .*--filter=@search-mcp\/http\.\.\. .*&& .*build:types$/,
        ),
        expect.stringMatching(/pack --pack-destination \/packs$/),
      ]),
    );
  });

  it('runs as a non-root user, from the packed packages only', () => {
    const user = lastOf('USER')?.value;
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    const copies = runtime?.instructions.filter((entry) => entry.keyword === 'COPY').map((entry) => entry.value);
    expect(copies).toEqual(['--from=build /packs /tmp/packs']);
    const install = runtime?.instructions.find((entry) => entry.keyword === 'RUN')?.value ?? '';
    expect(install).toContain('npm install --omit=dev');
    expect(
      runtime?.instructions.find((entry) => entry.keyword === 'ENV' && entry.value.startsWith('PATH='))?.value,
    ).toMatch(/^PATH=\/opt\/search-mcp\/node_modules\/\.bin:\$PATH/);
  });

  it('starts search-mcp-http on every interface, with --allowed-host explained', () => {
    const command = execForm(lastOf('CMD')?.value ?? '');
    expect(command?.[0]).toBe('search-mcp-http');
    expect(command?.join(' ')).toContain('--host 0.0.0.0');
    expect(lastOf('EXPOSE')?.value).toBe(command?.[command.indexOf('--port') + 1]);
    expect(dockerfile.comments.join('\n')).toMatch(/--allowed-host \S+/);
    expect(lastOf('ENTRYPOINT')).toBeUndefined(); // `docker run … search-mcp doctor` runs the CLI
  });

  it('sends the build context without installs, builds or git, but with everything the build reads', () => {
    expect(ignored).toEqual(expect.arrayContaining(['.git', '**/node_modules', '**/dist']));
    const needed = [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'turbo.json',
      'tsconfig.base.json',
      'tooling',
      'patches',
    ];
    for (const entry of workspacePackages()) needed.push(entry.relativeDirectory);
    const topLevel = (path: string) => path.split('/')[0] ?? path;
    expect(needed.filter((path) => ignored.includes(path) || ignored.includes(topLevel(path)))).toEqual([]);
  });
});

const docker = spawnSync('docker', ['info'], { encoding: 'utf8', timeout: 15_000 });
const dockerAvailable = docker.status === 0;
if (!dockerAvailable) {
  const reason = (docker.error?.message ?? `${docker.stderr ?? ''}`.trim().split('\n').at(-1)) || 'no answer';
  console.info(`Docker image build test skipped: \`docker info\` failed here (${reason}).`);
}

describe('Docker image', () => {
  it.skipIf(!dockerAvailable)(
    'builds, runs as a non-root user and answers --version with node and npx present',
    async () => {
      const tag = 'search-mcp:packaging-test';
      await run('docker', ['build', '--tag', tag, repositoryRoot], { maxBuffer: 256 * 1024 * 1024 });
      const inImage = async (...command: string[]) =>
        (await run('docker', ['run', '--rm', tag, ...command])).stdout.trim();
      const cli = workspacePackages().find((entry) => entry.name === '@search-mcp/cli');
      const http = workspacePackages().find((entry) => entry.name === '@search-mcp/http');
      expect(await inImage('search-mcp', '--version')).toBe(cli?.manifest.version);
      expect(await inImage('search-mcp-http', '--version')).toBe(http?.manifest.version);
      expect(await inImage('id', '-u')).not.toBe('0');
      expect(await inImage('sh', '-c', 'command -v npx')).not.toBe('');
    },
    900_000,
  );
});
