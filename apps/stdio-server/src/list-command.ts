import type { CliArguments } from './cli-arguments.js';
import { connectWithProgress, loadRuntime } from './startup.js';
import { formatTable, truncate } from './terminal-output.js';

export async function listCommand(cli: CliArguments): Promise<number> {
  const { runtime } = await loadRuntime(cli, 'error');
  try {
    await connectWithProgress(runtime);
    const caller = cli.project !== undefined ? { projectId: cli.project } : {};
    const tools = await runtime.catalog.list(cli.server !== undefined ? { server: cli.server } : {}, caller);
    if (cli.json) {
      process.stdout.write(
        `${JSON.stringify(
          tools.map(({ definition: _definition, ...tool }) => tool),
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    process.stdout.write(
      `${formatTable(
        ['tool key', 'description'],
        tools.map((tool) => [tool.toolKey, truncate(tool.description, 90)]),
      )}\n`,
    );
    const failed = runtime.manager.status().filter((status) => status.state === 'failed');
    process.stdout.write(
      `\n${tools.length} tools${failed.length ? `; not connected: ${failed.map((status) => status.id).join(', ')} (run search-mcp doctor)` : ''}\n`,
    );
    return 0;
  } finally {
    await runtime.close();
  }
}
