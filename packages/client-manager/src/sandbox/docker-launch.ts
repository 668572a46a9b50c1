import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { SandboxConfig } from '@search-mcp/shared';
import { locateCommand } from './command-location.js';
import { expandHome, holdsHome, homeFolders, normalizedPath, refuseHomeHolder } from './home-boundary.js';
import type { ServerLaunch } from './server-launch.js';

/** How long `docker info` may take to say whether a daemon answers. */
const daemonCheckMs = 10_000;

/**
 * The `docker run` command line that runs a server in a container of `image`: removed when it ends, stdin kept open,
 * no network unless `network`, a read-only root with a fresh `/tmp`, every capability dropped, no privilege gained
 * by setuid, run as the host user (`--user uid:gid`, so what it writes is the user's, not root's), the `paths`
 * mounted at the same place (read-only unless `writable`), the `cwd` read-only as the working folder, and the server's
 * configured `env` only (the host's environment stays out).
 */
export async function dockerLaunch(sandbox: SandboxConfig, server: ServerLaunch): Promise<ServerLaunch> {
  if (sandbox.image === undefined) throw new Error('a "docker" sandbox needs "image": the image to run in');
  const docker = locateCommand('docker', server.env);
  if (docker === undefined) throw new Error('a "docker" sandbox needs the docker CLI, which is not on PATH');
  const launch = dockerArguments(sandbox, server, docker);
  await checkDaemon(docker, server.env);
  return launch;
}

/**
 * The launch itself, daemon aside. A path or `cwd` that is the home or holds it is never mounted (the same check as
 * bubblewrap's, every spelling and symlink of the home included), and a host path that does not exist is refused:
 * docker would create it, as root.
 */
export function dockerArguments(sandbox: SandboxConfig, server: ServerLaunch, docker: string): ServerLaunch {
  if (sandbox.image === undefined) throw new Error('a "docker" sandbox needs "image": the image to run in');
  const home = server.env.HOME ?? homedir();
  const homes = homeFolders(server.env);
  const args = ['run', '--rm', '-i', '--init', ...(sandbox.network ? [] : ['--network', 'none'])];
  args.push('--read-only', '--tmpfs', '/tmp', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges');
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid !== undefined && gid !== undefined) args.push('--user', `${uid}:${gid}`);
  const mounted: string[] = [];
  for (const { path, writable } of sandbox.paths) {
    const hostPath = hostFolder(expandHome(path, home));
    refuseHomeHolder(hostPath, path, homes);
    mounted.push(hostPath);
    args.push('-v', `${hostPath}:${hostPath}:${writable ? 'rw' : 'ro'}`);
  }
  if (server.cwd !== undefined) {
    const cwd = hostFolder(server.cwd);
    // A cwd holding the home is not mounted: the server starts in the image's working folder instead.
    if (!holdsHome(cwd, homes)) {
      if (!mounted.includes(cwd)) args.push('-v', `${cwd}:${cwd}:ro`);
      args.push('-w', cwd);
    }
  }
  // `-e NAME` takes the value from docker's own environment: no secret on its command line (visible in `ps`).
  for (const name of Object.keys(server.configuredEnv ?? {})) args.push('-e', name);
  args.push(sandbox.image, server.command, ...server.args);
  return { command: docker, args, env: server.env, ...(server.cwd !== undefined ? { cwd: server.cwd } : {}) };
}

/** A host path to mount, normalized; one that does not exist is refused (docker would create it, owned by root). */
function hostFolder(path: string): string {
  if (!existsSync(path)) throw new Error(`sandbox path does not exist: ${path}`);
  return normalizedPath(path);
}

/** Rejects with a clear error when no docker daemon answers (the CLI alone cannot run a container). */
function checkDaemon(docker: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      docker,
      ['info', '--format', '{{.ServerVersion}}'],
      { env, timeout: daemonCheckMs },
      (error, _stdout, stderr) => {
        if (!error) {
          resolve();
          return;
        }
        const reason = (stderr.trim().split('\n').at(-1) ?? '') || error.message;
        reject(new Error(`a "docker" sandbox needs a running docker daemon, and none answered: ${reason}`));
      },
    );
  });
}
