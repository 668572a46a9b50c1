import { createSearchMcpRuntime, type SearchMcpRuntime } from '@search-mcp/runtime';
import { ConfigError, createJsonLineLogger, type Logger, type LogLevel, type ResolvedConfig } from '@search-mcp/shared';
import { findAndLoadConfig } from '@search-mcp/shared/node';
import type { CliArguments } from './cli-arguments.js';
import { createProgressReporter } from './terminal-output.js';

export const version = '0.1.0';

export function createStderrLogger(level: LogLevel): Logger {
  return createJsonLineLogger({ level, write: (line) => process.stderr.write(line) });
}

export interface LoadedRuntime {
  runtime: SearchMcpRuntime;
  config: ResolvedConfig;
  configPath: string;
  logger: Logger;
}

/** Loads the config (CONTRACT §2 search order) and wires the runtime. Throws ConfigError before anything starts. */
export async function loadRuntime(cli: CliArguments, defaultLevel: LogLevel): Promise<LoadedRuntime> {
  const logger = createStderrLogger(cli.logLevel ?? defaultLevel);
  const { config, path } = await findAndLoadConfig({
    ...(cli.config !== undefined ? { cliPath: cli.config } : {}),
    env: process.env,
    cwd: process.cwd(),
  });
  const runtime = createSearchMcpRuntime({
    config,
    logger,
    serverInfo: { name: 'search-mcp', version },
    ...(cli.mode ? { mode: cli.mode } : {}),
    ...(cli.project !== undefined ? { projectId: cli.project } : {}),
  });
  return { runtime, config, configPath: path, logger };
}

/** Connects every server, showing progress on a terminal. */
export async function connectWithProgress(runtime: SearchMcpRuntime): Promise<void> {
  const progress = createProgressReporter();
  const total = runtime.manager.serverIds.length;
  const settled = new Set<string>();
  const listener = (status: { id: string; state: string }) => {
    if (status.state === 'running' || status.state === 'failed') settled.add(status.id);
    const waiting = runtime.manager
      .status()
      .filter((entry) => entry.state === 'starting')
      .map((entry) => entry.id);
    progress.update(
      `Connecting servers: ${settled.size}/${total} done${waiting.length ? ` (waiting for ${waiting.join(', ')})` : ''}`,
    );
  };
  runtime.manager.on('status-change', listener);
  progress.update(`Connecting ${total} servers…`);
  await runtime.manager.startAll();
  runtime.manager.off('status-change', listener);
  progress.done();
}

export function describeStartupError(error: unknown): string {
  if (ConfigError.isInstance(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}
