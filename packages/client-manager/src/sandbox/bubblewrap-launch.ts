import { closeSync, existsSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { SandboxConfig } from '@search-mcp/shared';
import { installationOf, locateCommand } from './command-location.js';
import { expandHome, holdsHome, homeFolders, isInside, normalizedPath, refuseHomeHolder } from './home-boundary.js';
import type { ServerLaunch } from './server-launch.js';
import { hostNpmRegistry, refuseEmptyOfflineCache, sandboxNpmCache } from './sandbox-npm-cache.js';

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

/** Package runners that keep what they install in npm's cache: a sandboxed one gets a cache of its own. */
const npmRunners = new Set(['npx', 'npm', 'npx-cli.js', 'npm-cli.js']);

/**
 * The `bwrap` command line that runs a server in bubblewrap: new namespaces of every kind (no network unless
 * `network`, no other process in `/proc`), a fresh `/dev` and `/tmp`, the system folders read-only, and of the user's
 * files only what the config gives: the command's installation, the server's own npm cache for `npx`, the `paths`
 * (read-only unless `writable`; never the home or a folder holding it) and the `cwd` (read-only unless a writable path
 * holds it; never bound when it holds the home). The home folder is an empty tmpfs.
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
  // Every spelling of the home (`/root/`, `/root/.`, a symlink to it; the host's and the server's) is the home.
  const homes = homeFolders(server.env);
  const env = { ...server.env };
  const args = ['--unshare-all', ...(sandbox.network ? ['--share-net'] : [])];
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const folder of systemFolders) args.push(...mirror(folder));
  for (const file of etcFiles) args.push(...mirror(join('/etc', file)));
  // The homes are empty: nothing of the user's files unless the config lists it (`/` as home is left as it is).
  for (const folder of new Set([home, ...homes])) if (normalizedPath(folder) !== '/') args.push('--tmpfs', folder);
  const installations = new Set([visibleInstallation(command, homes)]);
  const runsOnNode = isNodeScript(command) || npmRunners.has(basename(server.command));
  const node = runsOnNode ? locateCommand('node', server.env, server.cwd) : undefined;
  if (node !== undefined) installations.add(visibleInstallation(node, homes));
  for (const folder of installations) {
    if (!systemFolders.some((system) => isInside(folder, system))) args.push('--ro-bind', folder, folder);
  }
  if (npmRunners.has(basename(server.command)) || npmRunners.has(basename(command))) {
    // npx installs a package into its cache before running it: the server gets a cache of its own, writable, as
    // `~/.npm`. The host's cache stays out: a server could change there what unsandboxed npx servers run later.
    const serverId = server.serverId ?? basename(server.command);
    const cache = sandboxNpmCache(serverId);
    const inside = join(home, '.npm');
    args.push('--bind', cache, inside);
    env.npm_config_cache = inside;
    delete env.NPM_CONFIG_CACHE;
    // `~/.npmrc` often holds registry tokens: only its registry crosses, so a cached package is found again.
    const registry = hostNpmRegistry(server.env, home);
    if (registry !== undefined) env.npm_config_registry = registry;
    for (const name of ['npm_config_userconfig', 'NPM_CONFIG_USERCONFIG', 'NPM_CONFIG_REGISTRY']) delete env[name];
    // No network: npx runs what the cache holds, or fails at once (ENOTCACHED) instead of retrying for minutes.
    if (!sandbox.network) {
      refuseEmptyOfflineCache(serverId, cache);
      env.npm_config_offline = 'true';
    }
  }
  const paths = sandbox.paths.map(({ path, writable }) => {
    const expanded = expandHome(path, home);
    if (!existsSync(expanded)) throw new Error(`sandbox path does not exist: ${expanded}`);
    const normalized = normalizedPath(expanded);
    refuseHomeHolder(normalized, path, homes);
    return { path: normalized, writable };
  });
  // A cwd that holds the home (`~`, `/`) is only the working folder: binding it would show the whole home.
  const cwd = server.cwd === undefined ? undefined : normalizedPath(server.cwd);
  if (cwd !== undefined && !holdsHome(cwd, homes) && !paths.some(({ path }) => isInside(cwd, path))) {
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

/**
 * What of a command's installation the sandbox sees: the whole installation (its `lib`, its `node_modules`), except
 * where that folder is a home, holds one, or is `~/.local` (which also holds `~/.local/state/search-mcp`, other tools'
 * data): then only the command's file.
 */
function visibleInstallation(file: string, homes: readonly string[]): string {
  const installation = normalizedPath(installationOf(file));
  if (holdsHome(installation, homes)) return file;
  return homes.some((home) => installation === join(home, '.local')) ? file : installation;
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
