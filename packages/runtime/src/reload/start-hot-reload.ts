import { errorMessage, type ResolvedConfig, silentLogger } from '@search-mcp/shared';
import { type ConfigReloader, type ConfigReloaderOptions, createConfigReloader } from './config-reloader.js';
import type { ReconfigurableCatalog, ReconfigurableServers } from './reload-types.js';
import type { ReplicaFanOut } from './replica-fan-out.js';

/** `SEARCH_MCP_WATCH=0` (or `false`, `off`, `no`) turns hot reload off, as `--no-watch` does. */
export const CONFIG_WATCH_ENV_VARIABLE = 'SEARCH_MCP_WATCH';

/** What hot reload drives: a `SearchMcpRuntime`. */
export interface ReloadableRuntime {
  readonly config: ResolvedConfig;
  readonly manager: ReconfigurableServers;
  readonly catalog: ReconfigurableCatalog;
  /** With a shared cluster store: a reload here makes the other replicas read their config file too. */
  readonly replicas?: Pick<ReplicaFanOut, 'publish' | 'onReload'>;
}

export interface HotReloadOptions extends Omit<ConfigReloaderOptions, 'config' | 'manager' | 'catalog'> {
  /** `false` (`--no-watch`) turns it off; default on unless `SEARCH_MCP_WATCH` says off. */
  watch?: boolean;
  /** Where `SEARCH_MCP_WATCH` is read; default `process.env`. */
  processEnvironment?: Readonly<Record<string, string | undefined>>;
}

const offValues = new Set(['0', 'false', 'off', 'no']);

/**
 * Starts hot reload of the config file a runtime was started from, as both apps run it: on by default, off with
 * `watch: false` or `SEARCH_MCP_WATCH=0`. A file whose directory cannot be watched leaves it off with a warning;
 * serving goes on. Returns the reloader (close it before the runtime), or undefined when off.
 */
export function startHotReload(runtime: ReloadableRuntime, options: HotReloadOptions): ConfigReloader | undefined {
  const { watch, processEnvironment, ...reloaderOptions } = options;
  const logger = options.logger ?? silentLogger;
  const setting = (processEnvironment ?? process.env)[CONFIG_WATCH_ENV_VARIABLE];
  if (watch === false || (setting !== undefined && offValues.has(setting.trim().toLowerCase()))) {
    logger.info('hot reload is off: edits of the config file apply after a restart', {
      file: options.configPath,
      because: watch === false ? '--no-watch' : `${CONFIG_WATCH_ENV_VARIABLE}=${setting}`,
    });
    return undefined;
  }
  const replicas = runtime.replicas;
  // A reload another replica asked for is not told back (each replica would tell the others again, forever).
  let askedByReplica = false;
  try {
    const reloader = createConfigReloader({
      ...reloaderOptions,
      config: runtime.config,
      manager: runtime.manager,
      catalog: runtime.catalog,
      onReloaded: (reload) => {
        if (!askedByReplica) void replicas?.publish({ kind: 'reload' });
        reloaderOptions.onReloaded?.(reload);
      },
    });
    logger.info('watching the config file: edits apply without a restart', { file: options.configPath });
    if (!replicas) return reloader;
    // Replicas mount the same config (a Kubernetes ConfigMap, a shared volume), but a watcher may see an update late
    // or never (a ConfigMap swaps a symlink): the replica that saw it has the others read their file now.
    const stop = replicas.onReload(async () => {
      askedByReplica = true;
      try {
        await reloader.reload();
      } finally {
        askedByReplica = false;
      }
    });
    return {
      reload: () => reloader.reload(),
      close: async () => {
        stop();
        await reloader.close();
      },
    };
  } catch (error) {
    logger.warn('hot reload is off: the config file cannot be watched; edits apply after a restart', {
      file: options.configPath,
      error: errorMessage(error),
    });
    return undefined;
  }
}
