import type { CliArguments } from './cli-arguments.js';
import { measureContextCost } from './context-cost.js';
import { connectWithProgress, loadRuntime } from './startup.js';
import { formatTable, truncate } from './terminal-output.js';

/** Validates the config, connects each server, and shows its state and the context Search MCP saves. */
export async function doctorCommand(cli: CliArguments): Promise<number> {
  const { runtime, configPath } = await loadRuntime(cli, 'error');
  try {
    await connectWithProgress(runtime);
    const statuses = runtime.manager.status();
    const caller = cli.project !== undefined ? { projectId: cli.project } : {};
    const cost = await measureContextCost(runtime, caller);
    const failed = statuses.filter((status) => status.state === 'failed');
    if (cli.json) {
      process.stdout.write(
        `${JSON.stringify({ config: configPath, servers: statuses, contextCost: cost }, null, 2)}\n`,
      );
      return failed.length > 0 ? 1 : 0;
    }
    const out: string[] = [];
    out.push(`Config: ${configPath} (${statuses.length} servers, mode ${runtime.mode})`, '');
    out.push(
      formatTable(
        ['server', 'state', 'tools', 'connect', 'last error'],
        statuses.map((status) => [
          status.id,
          status.state,
          String(status.toolCount),
          status.connectMs !== undefined ? `${Math.round(status.connectMs)} ms` : '',
          truncate(status.lastError ?? '', 80),
        ]),
      ),
      '',
    );
    const number = (value: number) => value.toLocaleString('en-US');
    const rows = [
      ['every server connected directly', `${number(cost.directTokens)} tokens`, `${cost.directTools} tools`],
      ['search-mcp, proxy mode', `${number(cost.proxyTokens)} tokens`, `${cost.proxyTools} tools`],
      [
        'search-mcp, meta mode',
        `${number(cost.metaTokens)} tokens`,
        `${cost.metaTools} tools, ${(cost.metaSavings * 100).toFixed(1)} % less than direct`,
      ],
    ];
    out.push(
      'Context a client loads before the first message (Claude tokens of the tools/list JSON):',
      formatTable(['', 'size', ''], rows),
      '',
    );
    if (failed.length > 0)
      out.push(`${failed.length} server(s) failed: fix the errors above, then run search-mcp doctor again.`);
    else out.push('All servers are running.');
    process.stdout.write(`${out.join('\n')}\n`);
    return failed.length > 0 ? 1 : 0;
  } finally {
    await runtime.close();
  }
}
