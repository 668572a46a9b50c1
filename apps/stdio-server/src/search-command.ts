import type { CliArguments } from './cli-arguments.js';
import { connectWithProgress, loadRuntime } from './startup.js';
import { formatTable, truncate } from './terminal-output.js';

export async function searchCommand(cli: CliArguments): Promise<number> {
  const { runtime } = await loadRuntime(cli, 'error');
  try {
    await connectWithProgress(runtime);
    const caller = cli.project !== undefined ? { projectId: cli.project } : {};
    const response = await runtime.catalog.search(
      { query: cli.positionals.join(' '), ...(cli.limit ? { maxResults: cli.limit } : {}) },
      caller,
    );
    if (cli.json) {
      const results = response.results.map(({ tool: _tool, ...hit }) => hit);
      process.stdout.write(`${JSON.stringify({ ...response, results }, null, 2)}\n`);
      return 0;
    }
    if (response.results.length === 0) {
      process.stdout.write(
        response.strategy === 'off' ? 'Tool search is off for this project.\n' : 'No tools matched.\n',
      );
      return 0;
    }
    const rows = response.results.map((hit, index) => [
      String(index + 1),
      hit.toolKey,
      hit.relevance.toFixed(2),
      truncate(hit.description ?? '', 70),
    ]);
    process.stdout.write(`${formatTable(['#', 'tool key', 'relevance', 'description'], rows)}\n`);
    process.stdout.write(
      `\n${response.toolCount} tools searched (${response.providerId ?? response.strategy}). Run one: search-mcp call ${response.results[0]?.toolKey} '{…}'\n`,
    );
    return 0;
  } finally {
    await runtime.close();
  }
}
