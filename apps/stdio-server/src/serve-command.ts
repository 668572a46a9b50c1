import { StdioJsonRpcServerTransport } from './transport/stdio-json-rpc-server-transport.js';
import type { CliArguments } from './cli-arguments.js';
import { loadRuntime } from './startup.js';

/**
 * The stdio MCP server. `initialize` and `tools/list` are answered at once; backends connect in the background
 * (a discovery meanwhile searches what is connected and says what is still starting). Stdout carries only the
 * protocol; logs go to stderr. Stdin EOF, SIGINT and SIGTERM end every backend's process tree before exiting.
 */
export async function serveCommand(cli: CliArguments): Promise<void> {
  const { runtime, configPath, logger } = await loadRuntime(cli, 'info');
  const server = runtime.createServer();
  const transport = new StdioJsonRpcServerTransport();

  let shuttingDown = false;
  const shutdown = async (reason: string, exitCode = 0) => {
    if (shuttingDown) {
      // A second signal means "now": do not wait for backends that ignore theirs.
      if (reason === 'SIGINT' || reason === 'SIGTERM') process.exit(exitCode);
      return;
    }
    shuttingDown = true;
    logger.info('shutting down', { reason });
    // A backend that ignores every signal must not keep us alive: the manager escalates to SIGKILL, this caps the wait.
    const force = setTimeout(() => process.exit(exitCode), 10_000);
    force.unref();
    await runtime
      .close()
      .catch((error: unknown) => logger.error('error while closing backends', { error: String(error) }));
    await server.close().catch(() => {});
    process.exit(exitCode);
  };

  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.stdin.once('close', () => void shutdown('stdin closed'));
  transport.onclose = () => void shutdown('transport closed');

  await server.connect(transport);
  logger.info('search-mcp serving on stdio', {
    config: configPath,
    mode: runtime.mode,
    servers: runtime.manager.serverIds.length,
  });
  void runtime.manager.startAll().then((statuses) => {
    const failed = statuses.filter((status) => status.state === 'failed');
    logger.info('backends settled', {
      running: statuses.filter((status) => status.state === 'running').length,
      failed: failed.map((status) => `${status.id}: ${status.lastError ?? 'failed'}`),
    });
  });
}
