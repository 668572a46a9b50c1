import type { PrestartedServer } from '@search-mcp/client-manager/prestart';
import { createSearchMcpRuntime, type SearchMcpRuntime } from '@search-mcp/runtime';
import {
  collectConfigSecrets,
  createGrowingSecretRedactor,
  createJsonLineLogger,
  type GrowingSecretRedactor,
  type Logger,
  type LogLevel,
  type ResolvedConfig,
} from '@search-mcp/shared';
import { findAndLoadConfig } from '@search-mcp/shared/node';
import { appVersion } from './app-version.js';
import { askClientToAuthorize } from './client-authorization.js';
import type { CliArguments, CliSearchStrategy } from './cli-arguments.js';
import type { CliLifecycle } from './cli-lifecycle.js';
import { createProgressReporter } from './terminal-output.js';

export interface LoadedRuntime {
  runtime: SearchMcpRuntime;
  config: ResolvedConfig;
  configPath: string;
  logger: Logger;
  /** Masks every configured secret in the log; hot reload teaches it the secrets of each reloaded config. */
  redactor: GrowingSecretRedactor;
}

/**
 * Loads the config (`--config`, `$SEARCH_MCP_CONFIG`, `./config/mcp-servers.json`, `~/.config/search-mcp/config.json`)
 * and wires the runtime, which the lifecycle closes on every way out. Throws a ConfigError before anything starts.
 * Logs are JSON lines on stderr with every configured secret masked (those a reload adds too, once the returned
 * redactor is handed to hot reload). `prestarted`: servers started before the runtime loaded, for its manager to
 * adopt (`call`).
 */
export async function loadRuntime(
  cli: CliArguments,
  defaultLevel: LogLevel,
  lifecycle: CliLifecycle,
  prestarted: readonly PrestartedServer[] = [],
): Promise<LoadedRuntime> {
  const loaded = await findAndLoadConfig({
    ...(cli.config !== undefined ? { cliPath: cli.config } : {}),
    env: process.env,
    cwd: process.cwd(),
  });
  const { path } = loaded;
  const config = cli.strategy ? withStrategy(loaded.config, cli.strategy, cli.project) : loaded.config;
  // From the config as loaded: a copy (`--strategy`) does not carry the `${keyring:NAME}` values beside it.
  const redactor = createGrowingSecretRedactor(collectConfigSecrets(loaded.config));
  const logger = createJsonLineLogger({
    level: cli.logLevel ?? defaultLevel,
    write: (line) => process.stderr.write(line),
    redactor,
  });
  lifecycle.useLogger(logger);
  // The opener of `serve` asks the runtime's client: it is made before the runtime, and reads it when asked.
  let created: SearchMcpRuntime | undefined;
  const runtime = createSearchMcpRuntime({
    config,
    logger,
    serverInfo: { name: 'search-mcp', version: appVersion },
    // serve has one client: backends are told what it declared (sampling, elicitation, roots), so they offer only
    // what can be answered. The other commands have no client to answer a backend's request.
    backendClientCapabilities: cli.command === 'serve' ? 'first-client' : {},
    // Only `serve` runs long enough for usage statistics to matter; a one-shot command leaves them to the next serve.
    persistUsage: cli.command === 'serve',
    ...(cli.mode ? { mode: cli.mode } : {}),
    ...(cli.project !== undefined ? { projectId: cli.project } : {}),
    // Only `auth <server>` sends a person to a browser (docs/oauth.md); `serve` asks its AI client to (a URL
    // elicitation) where the client can; every other command leaves a server that asks for OAuth waiting in
    // `needs-auth`, with the `search-mcp auth <server>` that fixes it.
    manager: {
      ...(prestarted.length > 0 ? { prestarted } : {}),
      ...(logsIn(cli) ? {} : { oauth: { openAuthorizationUrl: opener(cli, () => created, logger) } }),
    },
  });
  created = runtime;
  // A one-shot command has its answer when it closes: its backends get 100 ms to exit by themselves rather than the
  // whole grace (`serve` and `ui` end with their client or a signal, and let them finish).
  const oneShot = cli.command !== 'serve' && cli.command !== 'ui';
  lifecycle.onClose(() => runtime.close({ promptly: oneShot }));
  return { runtime, config, configPath: path, logger, redactor };
}

/** The OAuth opener of a command that is not `auth <server>`: `serve` asks its client; the others nobody. */
function opener(cli: CliArguments, runtimeOf: () => SearchMcpRuntime | undefined, logger: Logger) {
  return cli.command === 'serve' ? askClientToAuthorize(runtimeOf, logger.child({ component: 'oauth' })) : false;
}

/** `search-mcp auth <server>` (not `--logout`, not the states of all): the one command that opens a browser. */
function logsIn(cli: CliArguments): boolean {
  return cli.command === 'auth' && cli.positionals.length > 0 && !cli.logout;
}

/**
 * The config with `search --strategy` in force for this run: the default strategy, and the optimization of the
 * `--project` when the config has that project (it would win otherwise).
 */
function withStrategy(
  config: ResolvedConfig,
  strategy: CliSearchStrategy,
  projectId: string | undefined,
): ResolvedConfig {
  const projects =
    projectId !== undefined && Object.hasOwn(config.projects, projectId)
      ? { ...config.projects, [projectId]: { optimization: strategy } }
      : config.projects;
  return { ...config, search: { ...config.search, strategy }, projects };
}

/** Connects every server, showing progress on a terminal. */
export async function connectWithProgress(runtime: SearchMcpRuntime): Promise<void> {
  const progress = createProgressReporter();
  const total = runtime.manager.serverIds.length;
  const settled = new Set<string>();
  const listener = (status: { id: string; state: string }) => {
    if (status.state === 'running' || status.state === 'failed' || status.state === 'needs-auth')
      settled.add(status.id);
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
  try {
    await runtime.manager.startAll();
  } finally {
    runtime.manager.off('status-change', listener);
    progress.done();
  }
}

/**
 * Connects one server alone (a one-shot command that needs only it: `call server:tool`), showing progress on a
 * terminal; the others are never spawned. Rejects with why it failed (`manager.start`).
 */
export async function startServerWithProgress(runtime: SearchMcpRuntime, serverId: string): Promise<void> {
  const progress = createProgressReporter();
  progress.update(`Connecting ${serverId}…`);
  try {
    await runtime.manager.start(serverId);
  } finally {
    progress.done();
  }
}

/** The config's warnings (unknown keys with "did you mean", skipped entries) as plain lines on stderr. */
export function printConfigWarnings(config: ResolvedConfig): void {
  for (const warning of config.warnings) process.stderr.write(`search-mcp: warning: ${warning}\n`);
}
