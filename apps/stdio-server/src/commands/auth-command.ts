import { homedir } from 'node:os';
import { join } from 'node:path';
import { authorizeCommand, BackendAuthorizationError, type ServerStatus } from '@search-mcp/shared';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { loadRuntime, type LoadedRuntime } from '../startup.js';
import { createProgressReporter, formatTable } from '../terminal-output.js';

/**
 * `search-mcp auth` (docs/oauth.md): without a server, connects every remote server and shows its OAuth state; with
 * one, logs in to it (the browser, then the redirect to a loopback listener) and shows what it got; with `--logout`,
 * revokes and forgets its tokens. Tokens are never printed.
 */
export async function authCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<number> {
  const loaded = await loadRuntime(cli, 'error', lifecycle);
  const serverId = cli.positionals[0];
  if (serverId === undefined) return showStates(loaded, cli.json);
  const manager = loaded.runtime.manager;
  if (!manager.serverIds.includes(serverId)) {
    const remote = remoteServerIds(loaded).join(', ') || 'none';
    throw new BackendAuthorizationError({
      serverId,
      step: 'authorization',
      message: `no server with id '${serverId}' is configured (remote servers: ${remote})`,
    });
  }
  if (cli.logout) {
    const status = await manager.logout(serverId);
    return report(cli.json, status, `Logged out of '${serverId}': its tokens are revoked and forgotten.`);
  }
  const progress = createProgressReporter();
  progress.update(`Connecting to '${serverId}' (a browser opens if it asks for authorization)…`);
  let status: ServerStatus;
  try {
    status = await manager.authorize(serverId);
  } finally {
    progress.done();
  }
  const oauth = status.oauth;
  const details = [
    oauth?.issuer ? `issuer ${oauth.issuer}` : undefined,
    oauth?.scope ? `scope "${oauth.scope}"` : undefined,
    oauth?.expiresAt ? `access token valid until ${oauth.expiresAt}` : undefined,
    oauth?.refreshable ? 'renewed without you (refresh token)' : undefined,
  ].filter((detail) => detail !== undefined);
  return report(
    cli.json,
    status,
    `'${serverId}' is authorized${details.length ? ` (${details.join(', ')})` : ''}; ${status.toolCount} tools.`,
  );
}

function report(json: boolean, status: ServerStatus, text: string): number {
  process.stdout.write(json ? `${JSON.stringify(status, null, 2)}\n` : `${text}\n`);
  return 0;
}

function remoteServerIds(loaded: LoadedRuntime): string[] {
  return Object.values(loaded.config.mcpServers)
    .filter((server) => server.transport !== 'stdio')
    .map((server) => server.id);
}

/** Each remote server's state after a connect that asks nobody (a server that wants a login says so). */
async function showStates(loaded: LoadedRuntime, json: boolean): Promise<number> {
  const manager = loaded.runtime.manager;
  const ids = remoteServerIds(loaded).filter((id) => loaded.config.mcpServers[id]?.enabled);
  const progress = createProgressReporter();
  progress.update(`Connecting ${ids.length} remote servers…`);
  try {
    // Only to learn the state: a failure is in the status, shown below.
    await Promise.allSettled(ids.map((id) => manager.start(id)));
  } finally {
    progress.done();
  }
  const statuses = manager.status().filter((status) => ids.includes(status.id));
  const waiting = statuses.filter((status) => status.state === 'needs-auth');
  if (json) {
    process.stdout.write(`${JSON.stringify({ store: storeDescription(), servers: statuses }, null, 2)}\n`);
    return waiting.length > 0 ? 1 : 0;
  }
  if (statuses.length === 0) {
    process.stdout.write('No remote servers are configured: OAuth applies to servers reached by URL.\n');
    return 0;
  }
  const rows = statuses.map((status) => [
    status.id,
    status.state,
    status.oauth?.state ?? (status.state === 'running' ? 'not asked' : ''),
    status.oauth?.scope ?? '',
    status.oauth?.expiresAt ?? '',
    status.oauth?.refreshable ? 'yes' : '',
  ]);
  const lines = [formatTable(['server', 'state', 'oauth', 'scope', 'expires', 'refresh'], rows), ''];
  for (const status of waiting) lines.push(`${status.id}: ${status.lastError ?? `run ${authorizeCommand(status.id)}`}`);
  lines.push(`Tokens are kept in ${storeDescription()}.`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return waiting.length > 0 ? 1 : 0;
}

/** Where the manager's default store keeps tokens (docs/oauth.md, "Storage"). */
function storeDescription(): string {
  const file = process.env.SEARCH_MCP_OAUTH_FILE?.trim();
  if (file) return file;
  const configHome = process.env.XDG_CONFIG_HOME?.trim() || join(homedir(), '.config');
  return `the OS keyring when there is one, else ${join(configHome, 'search-mcp', 'oauth-credentials.json')}`;
}
