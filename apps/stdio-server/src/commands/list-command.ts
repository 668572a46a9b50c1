import { normalizeServerId, truncateText } from '@search-mcp/shared';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { closestName } from '../closest-name.js';
import { connectWithProgress, loadRuntime, printConfigWarnings } from '../startup.js';
import { formatTable } from '../terminal-output.js';
import { UsageError } from '../usage-error.js';
import { notConnectedNote } from './not-connected-note.js';

/**
 * `search-mcp list [--server ID]`: the visible tools. A server id the config does not have is an error (exit 2,
 * before anything starts); a named server that is not running makes the exit code 1.
 */
export async function listCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<number> {
  const { runtime, config, configPath } = await loadRuntime(cli, 'error', lifecycle);
  printConfigWarnings(config);
  const serverId = cli.server === undefined ? undefined : (normalizeServerId(cli.server) ?? cli.server);
  if (cli.server !== undefined && serverId !== undefined && !Object.hasOwn(config.mcpServers, serverId)) {
    const ids = Object.keys(config.mcpServers);
    const suggestion = closestName(cli.server, ids);
    throw new UsageError(
      `no server "${cli.server}" in ${configPath}${suggestion ? `; did you mean "${suggestion}"?` : ''}` +
        (ids.length > 0 ? ` (servers: ${ids.join(', ')})` : ' (it has no servers)'),
      { showHelpHint: false },
    );
  }
  await connectWithProgress(runtime);
  const caller = cli.project !== undefined ? { projectId: cli.project } : {};
  const tools = await runtime.catalog.list(serverId !== undefined ? { server: serverId } : {}, caller);
  const statuses = runtime.manager.status();
  const failed = statuses.filter(
    (status) => status.state !== 'running' && (serverId === undefined || status.id === serverId),
  );
  if (cli.json) {
    process.stdout.write(
      `${JSON.stringify(
        tools.map(({ definition: _definition, ...tool }) => tool),
        null,
        2,
      )}\n`,
    );
  } else {
    process.stdout.write(
      `${formatTable(
        ['tool key', 'description'],
        tools.map((tool) => [tool.toolKey, truncateText(tool.description, 90)]),
      )}\n`,
    );
    process.stdout.write(`\n${tools.length} tools\n`);
    const note = notConnectedNote(
      failed.filter((status) => status.state === 'failed' || status.state === 'needs-auth'),
    );
    if (note) process.stdout.write(`${note}\n`);
  }
  if (serverId !== undefined && config.mcpServers[serverId]?.enabled === false) {
    process.stderr.write(`search-mcp: server "${serverId}" is disabled in ${configPath}\n`);
    return 1;
  }
  const named = serverId === undefined ? undefined : statuses.find((status) => status.id === serverId);
  if (named && named.state !== 'running') {
    process.stderr.write(
      `search-mcp: server "${named.id}" is ${named.state}${named.lastError ? `: ${named.lastError}` : ''}\n`,
    );
    return 1;
  }
  return 0;
}
