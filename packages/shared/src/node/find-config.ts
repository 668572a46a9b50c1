/**
 * Where the config file is (README, "Configuration in short"): `--config`, else `$SEARCH_MCP_CONFIG`, else
 * `./config/mcp-servers.json`, else `~/.config/search-mcp/config.json`; `config-location.ts` holds the rules.
 */
import { resolve } from 'node:path';
import type { ResolvedConfig } from '../config/resolved-config.js';
import { ConfigError } from '../errors/config-error.js';
import {
  CONFIG_PATH_ENV_VARIABLE,
  configPlaces,
  type ResolvedConfigPath,
  type ResolveConfigPathOptions,
  resolveConfigPath,
} from './config-location.js';
import { loadConfig } from './load-config.js';

export interface LoadedConfig extends ResolvedConfigPath {
  config: ResolvedConfig;
}

/** `resolveConfigPath` then `loadConfig`; a ConfigError naming every place looked at when there is no file. */
export async function findAndLoadConfig(options: ResolveConfigPathOptions = {}): Promise<LoadedConfig> {
  const found = resolveConfigPath(options);
  if (found === undefined) {
    const places = configPlaces(options);
    const message =
      `No config file found. Looked at: --config (not given), $${CONFIG_PATH_ENV_VARIABLE} (not set), ` +
      `${places.cwdPath}, ${places.homePath}. Pass --config PATH or set ${CONFIG_PATH_ENV_VARIABLE}.`;
    throw new ConfigError({ issues: [{ path: '', message }], message });
  }
  const config = await loadConfig(found.path, {
    env: options.env,
    projectDirectory: resolve(options.cwd ?? process.cwd()),
  });
  return { ...found, config };
}
