/**
 * Where the config file is (README, "Configuration in short"): `--config`, else `$SEARCH_MCP_CONFIG`, else
 * `./config/mcp-servers.json`, else `~/.config/search-mcp/config.json`. Node built-ins only: the CLI reads it before
 * anything else loads (the `@search-mcp/shared/early-config` entry).
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { VariableEnvironment } from '../config/env-expansion.js';

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

/** Every place looked at, absolute (the first two undefined when not given). */
export function configPlaces(options: ResolveConfigPathOptions) {
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
