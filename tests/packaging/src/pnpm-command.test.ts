import { describe, expect, it } from 'vitest';
import { pnpmCommand, readManifest, repositoryRoot } from './workspace.js';

const pinned = readManifest(repositoryRoot).packageManager ?? '';
const agent = `${pinned.replace('@', '/')} npm/? node/${process.version} linux x64`;
const pnpmEntry = '/home/someone/.npm/_npx/0123/node_modules/pnpm/bin/pnpm.cjs';

describe('pnpmCommand', () => {
  it('runs the pnpm running the tests with this node when it is the pinned version', () => {
    expect(pinned).toMatch(/^pnpm@\d/);
    expect(pnpmCommand({ npm_execpath: pnpmEntry, npm_config_user_agent: agent })).toEqual({
      command: process.execPath,
      args: [pnpmEntry],
    });
  });

  it('goes through npx for another pnpm, for npm under `pnpm exec`, and with no package manager around', () => {
    const throughNpx = { command: 'npx', args: ['-y', pinned] };
    expect(
      pnpmCommand({ npm_execpath: pnpmEntry, npm_config_user_agent: 'pnpm/9.0.0 npm/? node/v20 linux x64' }),
    ).toEqual(throughNpx);
    expect(
      pnpmCommand({ npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js', npm_config_user_agent: agent }),
    ).toEqual(throughNpx);
    expect(pnpmCommand({})).toEqual(throughNpx);
  });
});
