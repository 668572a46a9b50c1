import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskConfigSecrets } from './masked-config.js';
import { searchMcpLaunch, startsThisProgram } from './search-mcp-launch.js';

let root: string;
let script: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'search-mcp-launch-'));
  script = join(root, 'app', 'dist', 'cli.js');
  await mkdir(join(root, 'app', 'dist'), { recursive: true });
  await writeFile(script, '');
  await chmod(script, 0o755);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('searchMcpLaunch', () => {
  it('uses the plain command only when search-mcp on PATH is this very program', async () => {
    const bin = join(root, 'bin');
    await mkdir(bin, { recursive: true });
    await symlink(script, join(bin, 'search-mcp'));
    expect(searchMcpLaunch({ script, path: `/nowhere:${bin}`, platform: 'linux' })).toEqual({
      command: 'search-mcp',
      args: [],
      how: 'on-path',
    });
    const other = join(root, 'other-bin');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'search-mcp'), '');
    expect(searchMcpLaunch({ script, path: other, nodePath: '/usr/bin/node', platform: 'linux' })).toEqual({
      command: '/usr/bin/node',
      args: [script],
      how: 'node-script',
    });
  });

  it('names the package for a run from npx, whose cache is no place to point at', () => {
    expect(
      searchMcpLaunch({ script: '/home/me/.npm/_npx/1f2e/node_modules/@search-mcp/cli/dist/cli.js', path: '' }),
    ).toEqual({ command: 'npx', args: ['-y', '@search-mcp/cli'], how: 'npx' });
  });

  it('knows an entry that starts this program by any path to it', async () => {
    const link = join(root, 'linked');
    await symlink(join(root, 'app'), link);
    expect(startsThisProgram({ command: 'node', args: [join(link, 'dist', 'cli.js'), '--config', 'x'] }, script)).toBe(
      true,
    );
    expect(startsThisProgram({ command: 'node', args: [join(root, 'elsewhere.js')] }, script)).toBe(false);
    expect(startsThisProgram({ command: 'npx', args: ['-y', 'server'] }, script)).toBe(false);
  });
});

describe('maskConfigSecrets', () => {
  it('hides env and header values except ${VAR} references, and keeps every other field', () => {
    const config = {
      mcpServers: {
        github: { command: 'npx', env: { TOKEN: 'ghp_secret', HOME_DIR: '${HOME}' } },
        remote: { url: 'https://h/mcp', headers: { Authorization: 'Bearer abc' } },
        ['__proto__']: { command: 'x' },
      },
      search: { maxResults: 5 },
    };
    const masked = maskConfigSecrets(config);
    expect(JSON.parse(JSON.stringify(masked))).toEqual({
      mcpServers: {
        github: { command: 'npx', env: { TOKEN: '<hidden>', HOME_DIR: '${HOME}' } },
        remote: { url: 'https://h/mcp', headers: { Authorization: '<hidden>' } },
        ['__proto__']: { command: 'x' },
      },
      search: { maxResults: 5 },
    });
    expect(config.mcpServers.github.env.TOKEN).toBe('ghp_secret');
  });
});
