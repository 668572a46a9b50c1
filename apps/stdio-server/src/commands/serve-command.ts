import { callerFromMeta, withListenSubscriptions } from '@search-mcp/server';
import { startHotReload } from '@search-mcp/runtime';
import type { CliArguments } from '../cli-arguments.js';
import type { CliLifecycle } from '../cli-lifecycle.js';
import { optimiseServingSooner } from '../serving-tier-up.js';
import { loadRuntime } from '../startup.js';
import { StdioJsonRpcServerTransport } from '../transport/stdio-json-rpc-server-transport.js';
import { UsageError } from '../usage-error.js';

const instructionsWaitVariable = 'SEARCH_MCP_INSTRUCTIONS_WAIT_MS';
/** A longer handshake than this is no start-up a client would wait for (many give up after 60 s). */
const maxInstructionsWaitMs = 60_000;

/**
 * The stdio MCP server. `initialize` and `tools/list` are answered at once; backends connect in the background
 * (a discovery meanwhile searches what is connected and says what is still starting). Stdout carries only the
 * protocol; logs go to stderr. Stdin EOF, a closed stdout, SIGINT, SIGTERM and SIGHUP all end every backend's process
 * tree before exiting. The config file is watched (off with `--no-watch` or `SEARCH_MCP_WATCH=0`): edits apply
 * while serving, and the secrets of a reloaded config are masked in the log like those it started with.
 *
 * `initialize` waits at most half a second for backends still starting, for their own notes (servers known to start
 * slower are not waited for; those still starting are named in the instructions). `SEARCH_MCP_INSTRUCTIONS_WAIT_MS`
 * sets that wait (0 = answer at once, at most 60000) for clients that care more for the notes than for a fast start.
 */
export async function serveCommand(cli: CliArguments, lifecycle: CliLifecycle): Promise<void> {
  // Read before anything starts: a bad value is a usage error, not a server that starts and misbehaves.
  const instructionsWaitMs = instructionsWaitFromEnvironment(process.env);
  const { runtime, config, configPath, logger, redactor } = await loadRuntime(cli, 'info', lifecycle);
  for (const warning of config.warnings) logger.warn('config warning', { warning });
  if (config.cluster) {
    // One client, one process: nothing to share (docs/scale-out.md). The same file may also serve search-mcp-http.
    logger.warn('config: cluster is ignored by the stdio server; only search-mcp-http replicas share state in Redis');
  }
  const server = runtime.createServer(instructionsWaitMs !== undefined ? { instructionsWaitMs } : {});
  // Closed before the runtime (closers run last-added first): stop answering, then stop the backends.
  lifecycle.onClose(() => server.close());
  const wire = new StdioJsonRpcServerTransport({
    onDiagnostic: (detail) => logger.debug('client input answered with an error or ignored', { detail }),
  });
  // The SDK's stdio entry answers a 2026-07-28 client's `subscriptions/listen` itself: this subscribes the stream's
  // resources at the backends and relays their updates onto it (a 2025 connection passes through untouched).
  const transport = withListenSubscriptions(wire, {
    hub: runtime.hub,
    callerOf: (meta) => callerFromMeta(meta, cli.project),
    logger: logger.child({ component: 'listen' }),
  });
  transport.onclose = () => void lifecycle.shutdown('stdin closed');

  if (process.stdin.isTTY) {
    process.stderr.write(
      'search-mcp: waiting for an MCP client on stdin. This is the server an AI client starts; to try it by hand,\n' +
        'run `search-mcp doctor` or `search-mcp search "read a file"` (see --help). Ctrl-C stops it.\n',
    );
  }
  await server.connect(transport);
  // From here V8 optimises the forwarding path within its first calls (serving-tier-up.ts).
  optimiseServingSooner();
  logger.info('search-mcp serving on stdio', {
    config: configPath,
    mode: runtime.mode,
    servers: runtime.manager.serverIds.length,
  });
  void runtime.startBackends().then((statuses) => {
    const failed = statuses.filter((status) => status.state === 'failed');
    logger.info('backends settled', {
      running: statuses.filter((status) => status.state === 'running').length,
      failed: failed.map((status) => `${status.id}: ${status.lastError ?? 'failed'}`),
    });
  });
  const reloader = startHotReload(runtime, { configPath, logger, redactor, watch: cli.watch });
  // Closed first (closers run last-added first): no reload may start servers while the runtime stops them.
  if (reloader) lifecycle.onClose(() => reloader.close());
}

/** `SEARCH_MCP_INSTRUCTIONS_WAIT_MS`, when set: whole milliseconds, 0 to 60000. */
export function instructionsWaitFromEnvironment(environment: NodeJS.ProcessEnv): number | undefined {
  const text = environment[instructionsWaitVariable];
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > maxInstructionsWaitMs)
    throw new UsageError(
      `${instructionsWaitVariable} must be whole milliseconds from 0 to ${maxInstructionsWaitMs}, not "${text}"`,
      { showHelpHint: false },
    );
  return value;
}
