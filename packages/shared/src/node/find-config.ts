/**
 * Where the config file is (README, "Configuration in short"): `--config`, else `$SEARCH_MCP_CONFIG`, else
 * `./config/mcp-servers.json`, else `~/.config/search-mcp/config.json`.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ResolvedConfig } from '../config/resolved-config.js';
import type { VariableEnvironment } from '../config/env-expansion.js';
import { ConfigError } from '../errors/config-error.js';
import { loadConfig } from './load-config.js';

export type ConfigPathSource = 'cli' | 'env' | 'cwd' | 'home';

export interface ResolveConfigPathOptions {
  /** `--config PATH`. */
  cliPath?: string;
  /** Default `process.env` (for `SEARCH_MCP_CONFIG`). */
  env?: VariableEnvironment;
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Default `os.homedir()`. */
  homeDir?: string;
}

export interface ResolvedConfigPath {
  /** Absolute. */
  path: string;
  source: ConfigPathSource;
}

export interface LoadedConfig extends ResolvedConfigPath {
  config: ResolvedConfig;
}

export const CONFIG_PATH_ENV_VARIABLE = 'SEARCH_MCP_CONFIG';

/**
 * Where the config file is (README, "Configuration in short"): `--config`, else `$SEARCH_MCP_CONFIG`, else
 * `./config/mcp-servers.json`, else `~/.config/search-mcp/config.json`. The last two count only when they exist;
 * the first two are returned even when missing, so `loadConfig` can say so instead of silently using another file.
 */
export function resolveConfigPath(options: ResolveConfigPathOptions = {}): ResolvedConfigPath | undefined {
  const places = configPlaces(options);
  if (places.cliPath !== undefined) return { path: places.cliPath, source: 'cli' };
  if (places.envPath !== undefined) return { path: places.envPath, source: 'env' };
  if (isFile(places.cwdPath)) return { path: places.cwdPath, source: 'cwd' };
  if (isFile(places.homePath)) return { path: places.homePath, source: 'home' };
  return undefined;
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

function configPlaces(options: ResolveConfigPathOptions) {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const homeDir = options.homeDir ?? homedir();
  const absolute = (path: string | undefined) =>
    path === undefined || path === '' ? undefined : resolve(cwd, expandHome(path, homeDir));
  return {
    cliPath: absolute(options.cliPath),
    envPath: absolute(env[CONFIG_PATH_ENV_VARIABLE]),
    cwdPath: join(resolve(cwd), 'config', 'mcp-servers.json'),
    homePath: join(homeDir, '.config', 'search-mcp', 'config.json'),
  };
}

// The shell expands `~` on the command line but not inside a quoted variable value.
function expandHome(path: string, homeDir: string): string {
  if (path === '~') return homeDir;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homeDir, path.slice(2));
  return path;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
