import { existsSync, lstatSync, mkdirSync, openSync, readSync, closeSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { SandboxConfig } from '@search-mcp/shared';
import { installationOf, locateCommand } from './command-location.js';
import { expandHome, type ServerLaunch } from './sandbox-launch.js';

/** The system folders every command needs, read-only (a symlink such as `/bin -> usr/bin` is made again as one). */
const systemFolders = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The files of `/etc` a program needs to run, resolve names and check TLS certificates, read-only. The rest of
 * `/etc` (`shadow`, `ssh/`, credentials of other tools) stays out.
 */
const etcFiles = [
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'resolv.conf',
  'gai.conf',
  'localtime',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'pki',
];

/** Package runners that keep what they install in npm's cache: a sandboxed one gets that cache (and only it). */
const npmRunners = new Set(['npx', 'npm', 'npx-cli.js', 'npm-cli.js']);

/**
 * The `bwrap` command line that runs a server in bubblewrap: new namespaces of every kind (no network unless
 * `network`, no other process in `/proc`), a fresh `/dev` and `/tmp`, the system folders read-only, and of the user's
 * files only what the config gives: the command's installation, the npm cache for `npx`, the `paths` (read-only
 * unless `writable`) and the `cwd` (read-only unless a writable path holds it). The home folder is an empty tmpfs.
 */
export function bubblewrapLaunch(sandbox: SandboxConfig, server: ServerLaunch): ServerLaunch {
  if (process.platform !== 'linux') {
    throw new Error(`a "bubblewrap" sandbox runs on Linux only (this is ${process.platform}); use "docker" here`);
  }
  const bwrap = locateCommand('bwrap', server.env);
  if (bwrap === undefined) {
    throw new Error(
      'a "bubblewrap" sandbox needs bwrap, which is not installed (Debian/Ubuntu: apt-get install bubblewrap)',
    );
  }
  const command = locateCommand(server.command, server.env, server.cwd);
  if (command === undefined) throw new Error(`command not found: ${server.command} (is it installed and on PATH?)`);
  const home = server.env.HOME ?? homedir();
  const env = { ...server.env };
  const args = ['--unshare-all', ...(sandbox.network ? ['--share-net'] : [])];
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const folder of systemFolders) args.push(...mirror(folder));
  for (const file of etcFiles) args.push(...mirror(join('/etc', file)));
  // The home is empty: nothing of the user's files unless the config lists it (`/` as home is left as it is).
  if (home !== '/') args.push('--tmpfs', home);
  // A folder that holds the home (the home itself, `/`) would show all of it: then only the file is bound.
  const holdsHome = (folder: string) => isInside(home, folder);
  const visibleFolder = (file: string) => (holdsHome(installationOf(file)) ? file : installationOf(file));
  const installations = new Set([visibleFolder(command)]);
  const runsOnNode = isNodeScript(command) || npmRunners.has(basename(server.command));
  const node = runsOnNode ? locateCommand('node', server.env, server.cwd) : undefined;
  if (node !== undefined) installations.add(visibleFolder(node));
  for (const folder of installations) {
    if (!systemFolders.some((system) => isInside(folder, system))) args.push('--ro-bind', folder, folder);
  }
  if (npmRunners.has(basename(server.command)) || npmRunners.has(basename(command))) {
    // npx installs a package into the cache before running it: without the cache writable it can run nothing.
    const cache = server.env.npm_config_cache ?? server.env.NPM_CONFIG_CACHE ?? join(home, '.npm');
    mkdirSync(cache, { recursive: true });
    args.push('--bind', cache, cache);
    // npm's user config names the registry the cache was filled from; without it a cached package is not found.
    const userConfig = server.env.npm_config_userconfig ?? server.env.NPM_CONFIG_USERCONFIG ?? join(home, '.npmrc');
    if (existsSync(userConfig)) args.push('--ro-bind', userConfig, userConfig);
    // No network: npx runs what the cache holds, or fails at once (ENOTCACHED) instead of retrying for minutes.
    if (!sandbox.network) env.npm_config_offline = 'true';
  }
  const paths = sandbox.paths.map(({ path, writable }) => ({ path: expandHome(path, home), writable }));
  for (const { path } of paths) {
    if (!existsSync(path)) throw new Error(`sandbox path does not exist: ${path}`);
  }
  // A cwd that holds the home (`~`, `/`) is only the working folder: binding it would show the whole home.
  const cwd = server.cwd;
  if (cwd !== undefined && !holdsHome(cwd) && !paths.some(({ path }) => isInside(cwd, path))) {
    args.push('--ro-bind', cwd, cwd);
  }
  // Parents first, so a path inside another keeps its own mode (a writable folder in a read-only one).
  for (const { path, writable } of [...paths].sort((a, b) => a.path.length - b.path.length)) {
    args.push(writable ? '--bind' : '--ro-bind', path, path);
  }
  if (cwd !== undefined) args.push('--chdir', cwd);
  args.push('--', command, ...server.args);
  return { command: bwrap, args, env, ...(server.cwd !== undefined ? { cwd: server.cwd } : {}) };
}

/** A host path as the sandbox sees it: a symlink as the same symlink, a folder or file bound read-only, else nothing. */
function mirror(path: string): string[] {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch {
    return [];
  }
  // `/etc/resolv.conf` is often a link into `/run`, which the sandbox does not see: its target is bound instead.
  if (stats.isSymbolicLink() && !path.startsWith('/etc/')) return ['--symlink', readlinkSync(path), path];
  return ['--ro-bind', realpathSync(path), path];
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/** A script run by node (`#!/usr/bin/env node`): the sandbox needs node's installation too. */
function isNodeScript(file: string): boolean {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, 'r');
    const head = Buffer.alloc(128);
    const length = readSync(descriptor, head, 0, head.length, 0);
    const firstLine = head.subarray(0, length).toString('latin1').split('\n')[0] ?? '';
    return firstLine.startsWith('#!') && firstLine.includes('node');
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
