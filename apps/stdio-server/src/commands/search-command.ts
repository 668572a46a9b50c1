import { truncateText } from '@search-mcp/shared';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { connectWithProgress, loadRuntime, printConfigWarnings } from '../startup.js';
import { formatTable } from '../terminal-output.js';
import { notConnectedNote } from './not-connected-note.js';

/** `search-mcp search <query…>`: ranks the visible tools as `tool_discovery` does and prints the best. */
export async function searchCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<number> {
  const { runtime, config } = await loadRuntime(cli, 'error', lifecycle);
  printConfigWarnings(config);
  await connectWithProgress(runtime);
  const caller = cli.project !== undefined ? { projectId: cli.project } : {};
  const response = await runtime.catalog.search(
    { query: cli.positionals.join(' '), ...(cli.limit ? { maxResults: cli.limit } : {}) },
    caller,
  );
  const failed = runtime.manager.status().filter((status) => status.state === 'failed');
  if (cli.json) {
    const results = response.results.map(({ tool: _tool, ...hit }) => hit);
    const notConnected = failed.map((status) => ({ id: status.id, lastError: status.lastError }));
    process.stdout.write(`${JSON.stringify({ ...response, results, notConnected }, null, 2)}\n`);
    return 0;
  }
  if (response.results.length === 0) {
    process.stdout.write(
      response.strategy === 'off' ? 'Tool search is off for this project.\n' : 'No tools matched.\n',
    );
  } else {
    const rows = response.results.map((hit, index) => [
      String(index + 1),
      hit.toolKey,
      hit.relevance.toFixed(2),
      truncateText(hit.description ?? '', 70),
    ]);
    process.stdout.write(`${formatTable(['#', 'tool key', 'relevance', 'description'], rows)}\n`);
    process.stdout.write(
      `\n${response.toolCount} tools searched (${response.providerId ?? response.strategy}). Run one: search-mcp call ${response.results[0]?.toolKey} '{…}'\n`,
    );
  }
  const note = notConnectedNote(failed);
  if (note) process.stdout.write(`${note}\n`);
  return 0;
}
