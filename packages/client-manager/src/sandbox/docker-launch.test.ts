import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dockerArguments } from './docker-launch.js';

// The argument list alone: no docker daemon runs where these tests run (docs/trust.md, "Sandboxed servers").
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function temporary(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'search-mcp-docker-args-'));
  directories.push(directory);
  return directory;
}

const sandbox = (paths: { path: string; writable: boolean }[] = []) =>
  ({ kind: 'docker', network: false, paths, image: 'node:20-slim' }) as const;
const server = (extra: { cwd?: string; env?: Record<string, string> } = {}) => ({
  command: 'node',
  args: ['server.js'],
  env: extra.env ?? {},
  ...(extra.cwd !== undefined ? { cwd: extra.cwd } : {}),
});

function mounts(args: string[]): string[] {
  return args.flatMap((argument, index) => (args[index - 1] === '-v' ? [argument] : []));
}

describe('the docker run arguments', () => {
  it.each([['the home'], ['the home with a trailing slash'], ['the home with /.']])(
    'never mount a cwd that is %s',
    (how) => {
      const home = homedir();
      const cwd = how.endsWith('slash') ? `${home}/` : how.endsWith('/.') ? `${home}/.` : home;
      const { args } = dockerArguments(sandbox(), server({ cwd }), '/usr/bin/docker');
      expect(mounts(args)).toEqual([]);
    },
  );

  it('never mounts a cwd that is the server HOME', async () => {
    const home = await temporary();
    const { args } = dockerArguments(sandbox(), server({ cwd: `${home}/`, env: { HOME: home } }), 'docker');
    expect(mounts(args)).toEqual([]);
  });

  it('mounts a cwd inside the home read-only as the working folder', async () => {
    const folder = await temporary();
    const { args } = dockerArguments(sandbox(), server({ cwd: folder }), 'docker');
    expect(mounts(args)).toEqual([`${folder}:${folder}:ro`]);
    expect(args[args.indexOf('-w') + 1]).toBe(folder);
  });

  it('runs as the host user, not root', () => {
    const { args } = dockerArguments(sandbox(), server(), 'docker');
    expect(args[args.indexOf('--user') + 1]).toBe(`${process.getuid?.()}:${process.getgid?.()}`);
  });

  it.each([['~'], ['/'], [`${homedir()}/`]])('refuses the path %s', (path) => {
    expect(() => dockerArguments(sandbox([{ path, writable: false }]), server(), 'docker')).toThrow(
      /is the home folder or holds it/,
    );
  });

  it('refuses a path that does not exist instead of letting docker create it as root', async () => {
    const missing = join(await temporary(), 'missing');
    expect(() => dockerArguments(sandbox([{ path: missing, writable: true }]), server(), 'docker')).toThrow(
      `sandbox path does not exist: ${missing}`,
    );
    expect(() => dockerArguments(sandbox(), server({ cwd: missing }), 'docker')).toThrow(/does not exist/);
  });
});
