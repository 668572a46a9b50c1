import { errorMessage, type ResolvedConfig, silentLogger } from '@search-mcp/shared';
import { type ConfigReloader, type ConfigReloaderOptions, createConfigReloader } from './config-reloader.js';
import type { ReconfigurableCatalog, ReconfigurableServers } from './reload-types.js';

/** `SEARCH_MCP_WATCH=0` (or `false`, `off`, `no`) turns hot reload off, as `--no-watch` does. */
export const CONFIG_WATCH_ENV_VARIABLE = 'SEARCH_MCP_WATCH';

/** What hot reload drives: a `SearchMcpRuntime`. */
export interface ReloadableRuntime {
  readonly config: ResolvedConfig;
  readonly manager: ReconfigurableServers;
  readonly catalog: ReconfigurableCatalog;
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
  try {
    const reloader = createConfigReloader({
      ...reloaderOptions,
      config: runtime.config,
      manager: runtime.manager,
      catalog: runtime.catalog,
    });
    logger.info('watching the config file: edits apply without a restart', { file: options.configPath });
    return reloader;
  } catch (error) {
    logger.warn('hot reload is off: the config file cannot be watched; edits apply after a restart', {
      file: options.configPath,
      error: errorMessage(error),
    });
    return undefined;
  }
}
