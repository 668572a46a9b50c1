import {
  type SecretCollector,
  ConfigError,
  collectConfigSecrets,
  errorMessage,
  type Logger,
  type ResolvedConfig,
  silentLogger,
  type VariableEnvironment,
} from '@search-mcp/shared';
import { watchConfigFile } from '@search-mcp/shared/node';
import type {
  ConfigReload,
  ReconfigurableCatalog,
  ReconfigurableServers,
  ServerReconfiguration,
} from './reload-types.js';
import { settingsNeedingRestart } from './settings-needing-restart.js';

export interface ConfigReloaderOptions {
  /** The config file the host was started from. */
  configPath: string;
  /** The config the host is running now (as loaded at start): every edit is compared with it. */
  config: ResolvedConfig;
  /** Starts, stops and restarts backends: the runtime's `McpClientManager`. */
  manager: ReconfigurableServers;
  /** The runtime's catalog: given a new config live when it can take one. */
  catalog?: ReconfigurableCatalog;
  logger?: Logger;
  /** Learns each new config's secrets before its servers start (see `createGrowingSecretRedactor`). */
  redactor?: SecretCollector;
  /** Top-level sections the host reads only at start (the HTTP app: `auth`): their edits need a restart. */
  fixedByHost?: readonly string[];
  /** After each applied reload (its summary is already logged). */
  onReloaded?(reload: ConfigReload): void;
  /**
   * After each edit that changed nothing because it could not be used (a file that cannot be read or parsed, or a
   * server change the manager refused): why, in one line (the log has the details). The last good config keeps serving.
   */
  onReloadFailed?(reason: string): void;
  /** Quiet time after the last file event; default that of `watchConfigFile` (100 ms). */
  debounceMs?: number;
  /** Variables for `${VAR}`, as the config was loaded with; default `process.env`. */
  environment?: VariableEnvironment;
  /** As the config was loaded with (Claude Code project scope); default `process.cwd()`. */
  projectDirectory?: string;
}

export interface ConfigReloader {
  /** Reads the file now, as a change would; resolves once what it found is applied (or rejected). */
  reload(): Promise<void>;
  /**
   * Stops watching; no reload starts after it and nothing more is logged. A reload being applied is not waited for:
   * the host stops the manager next, which ends the servers that reload was starting.
   */
  close(): Promise<void>;
}

/**
 * Hot reload: watches the config file and applies each valid edit to the running host. Added servers start,
 * removed ones stop, changed ones restart, the others keep running (the manager's `reconfigure`); the catalog takes
 * the new projects, tokens and search settings when it can, and every setting that needs a restart is named in the
 * log. A file that cannot be read or parsed changes nothing: the last good config keeps serving, and the log says
 * why and where. Reloads run one at a time; edits saved while one runs are applied after it, the latest only.
 *
 * @throws when the config file's directory cannot be watched (it does not exist).
 */
export function createConfigReloader(options: ConfigReloaderOptions): ConfigReloader {
  const logger = (options.logger ?? silentLogger).child({ component: 'config-reload' });
  const file = options.configPath;
  let current = options.config;
  let pending: ResolvedConfig | undefined;
  let applying: Promise<void> | undefined;
  let closed = false;

  const apply = async (next: ResolvedConfig): Promise<void> => {
    const previous = current;
    // Before anything starts: a new server's secrets are masked from its first log line.
    options.redactor?.add(collectConfigSecrets(next));
    const catalogNotApplied = applyToCatalog(options.catalog, next, logger);
    let servers: ServerReconfiguration;
    try {
      servers = await options.manager.reconfigure(next);
    } catch (error) {
      // After close the host is stopping the manager: a reload cut short by that is no news.
      if (closed) return;
      logger.error('config reload failed while applying server changes; edit the config file to try again', {
        file,
        error: errorMessage(error),
      });
      options.onReloadFailed?.(errorMessage(error));
      return;
    }
    current = next;
    if (closed) return;
    const notApplied = [
      ...new Set([
        ...(servers.notApplied ?? []),
        ...(catalogNotApplied ?? []),
        ...settingsNeedingRestart(previous, next, {
          catalogReconfigurable: catalogNotApplied !== undefined,
          ...(options.fixedByHost ? { fixedByHost: options.fixedByHost } : {}),
        }),
      ]),
    ];
    logger.info(reloadSummary(servers), {
      file,
      added: servers.added,
      removed: servers.removed,
      changed: servers.changed,
      unchanged: servers.unchanged.length,
    });
    if (notApplied.length > 0) {
      logger.warn(`restart search-mcp to apply: ${notApplied.join(', ')}`, { file });
    }
    const oldWarnings = new Set(previous.warnings);
    for (const warning of next.warnings) if (!oldWarnings.has(warning)) logger.warn('config warning', { warning });
    reportServersThatDoNotRun(next, servers, options.manager, logger);
    options.onReloaded?.({ previous, config: next, servers, notApplied });
  };

  const drain = async (): Promise<void> => {
    while (pending !== undefined && !closed) {
      const next = pending;
      pending = undefined;
      await apply(next);
    }
  };
  const schedule = (next: ResolvedConfig): Promise<void> => {
    // Only the latest edit matters: one saved while a reload runs replaces any other still waiting.
    if (applying !== undefined) logger.debug('config edited while a reload runs; applied after it', { file });
    pending = next;
    applying ??= drain().finally(() => {
      applying = undefined;
    });
    return applying;
  };

  const watcher = watchConfigFile(file, {
    initialConfig: options.config,
    onChange: (next) => void schedule(next),
    onError: (error) => {
      if (closed) return;
      const rejection = describeRejection(error);
      logger.error('config file change rejected; still serving the last good config', { file, ...rejection });
      options.onReloadFailed?.(rejection.problems.join('; '));
    },
    onUnchanged: () => logger.debug('config file touched; nothing to apply', { file }),
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    ...(options.environment ? { environment: options.environment } : {}),
    ...(options.projectDirectory !== undefined ? { projectDirectory: options.projectDirectory } : {}),
  });

  return {
    reload: async () => {
      await watcher.check();
      await applying;
    },
    close: async () => {
      closed = true;
      pending = undefined;
      watcher.close();
    },
  };
}

/**
 * Gives the catalog the new config when it can take one: the settings it could not apply (possibly none), or
 * undefined when it cannot take a config at all.
 */
function applyToCatalog(
  catalog: ReconfigurableCatalog | undefined,
  next: ResolvedConfig,
  logger: Logger,
): readonly string[] | undefined {
  if (typeof catalog?.reconfigure !== 'function') return undefined;
  try {
    return catalog.reconfigure(next) ?? [];
  } catch (error) {
    logger.error('the catalog could not take the new config; it keeps the old one', { error: errorMessage(error) });
    return undefined;
  }
}

/** The servers the reload started or restarted that are not running: a broken entry, or a failed start. */
function reportServersThatDoNotRun(
  next: ResolvedConfig,
  servers: ServerReconfiguration,
  manager: ReconfigurableServers,
  logger: Logger,
): void {
  const started = [...servers.added, ...servers.changed];
  const states = new Map((manager.status?.() ?? []).map((status) => [status.id, status]));
  for (const id of started) {
    const configError = Object.hasOwn(next.mcpServers, id) ? next.mcpServers[id]?.configError : undefined;
    const status = states.get(id);
    if (configError !== undefined) {
      logger.warn('server entry is broken; it stays failed until fixed', { server: id, reason: configError });
    } else if (status?.state === 'failed') {
      logger.warn('server started by the reload failed', { server: id, reason: status.lastError ?? 'failed' });
    }
  }
}

/** `config reloaded: added a, b; removed none; changed c (2 unchanged)`. */
function reloadSummary(servers: ServerReconfiguration): string {
  const list = (ids: readonly string[]) => (ids.length > 0 ? ids.join(', ') : 'none');
  return (
    `config reloaded: added ${list(servers.added)}; removed ${list(servers.removed)}; ` +
    `changed ${list(servers.changed)} (${servers.unchanged.length} unchanged)`
  );
}

/** The problems of a rejected file, each with its JSON path (config errors never hold config values). */
function describeRejection(error: Error): { problems: string[]; warnings?: readonly string[] } {
  if (!ConfigError.isInstance(error)) return { problems: [errorMessage(error)] };
  const problems = error.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  return { problems, ...(error.warnings.length > 0 ? { warnings: error.warnings } : {}) };
}
