import type { SandboxConfig } from '@search-mcp/shared';
import { bubblewrapLaunch } from './bubblewrap-launch.js';
import { dockerLaunch } from './docker-launch.js';
import type { ServerLaunch } from './server-launch.js';

/**
 * The launch of a server with `sandbox` in its config (docs/trust.md, "Sandboxed servers"): bubblewrap or docker
 * wrapped around its command. Rejects with an error a user can act on when the sandbox cannot run here (not Linux,
 * `bwrap` not installed, no docker daemon, a configured path that does not exist): such a server fails to start,
 * it never runs unsandboxed.
 */
export async function sandboxLaunch(sandbox: SandboxConfig, server: ServerLaunch): Promise<ServerLaunch> {
  return sandbox.kind === 'bubblewrap' ? bubblewrapLaunch(sandbox, server) : dockerLaunch(sandbox, server);
}
