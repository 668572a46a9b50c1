import type { SandboxConfig } from '@search-mcp/shared';
import { bubblewrapLaunch } from './bubblewrap-launch.js';
import { dockerLaunch } from './docker-launch.js';

/** What is spawned for a stdio server: its own command, or the sandbox's command that runs it. */
export interface ServerLaunch {
  command: string;
  args: string[];
  /** The complete environment of the spawned process. */
  env: Record<string, string>;
  cwd?: string;
  /** The server's own `env` from its config: what a docker container is given (the host's environment is not). */
  configuredEnv?: Record<string, string>;
  /** The server's id in the config: names the sandbox's own npm cache. */
  serverId?: string;
}

/**
 * The launch of a server with `sandbox` in its config (docs/trust.md, "Sandboxed servers"): bubblewrap or docker
 * wrapped around its command. Rejects with an error a user can act on when the sandbox cannot run here (not Linux,
 * `bwrap` not installed, no docker daemon, a configured path that does not exist): such a server fails to start,
 * it never runs unsandboxed.
 */
export async function sandboxLaunch(sandbox: SandboxConfig, server: ServerLaunch): Promise<ServerLaunch> {
  return sandbox.kind === 'bubblewrap' ? bubblewrapLaunch(sandbox, server) : dockerLaunch(sandbox, server);
}

/** A configured sandbox path with `~` made the user's home (the server's `HOME`, else the host's). */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? `${home}${path.slice(1)}` : path;
}
