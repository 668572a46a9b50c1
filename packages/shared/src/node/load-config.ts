/** Reading one config file: JSONC text → `parseConfig`, relative paths resolved against the file's directory. */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ResolvedConfig } from '../config/resolved-config.js';
import type { SecretResolver, VariableEnvironment } from '../config/env-expansion.js';
import { parseConfig } from '../config/parse-config.js';
import { ConfigError } from '../errors/config-error.js';
import { keyringSecretResolver } from './os-keyring.js';
import { JsonSyntaxError, parseJsonWithComments } from './parse-json-with-comments.js';

export interface LoadConfigOptions {
  /** Variables for `${VAR}`; default `process.env`. */
  env?: VariableEnvironment;
  /** Answers `${keyring:NAME}`; default the OS keyring (`keyringSecretResolver`), touched only when one is used. */
  secrets?: SecretResolver;
  /**
   * The directory whose project-scope servers a Claude Code `~/.claude.json` adds (`projects[<dir>].mcpServers`);
   * default `process.cwd()`.
   */
  projectDirectory?: string;
}

/**
 * Reads a JSON (comments and trailing commas allowed) config file and resolves it against its directory. The result
 * carries `warnings` and marks broken servers with `configError`; a file that cannot be read or parsed, or an
 * invalid top-level section, is a `ConfigError`.
 */
export async function loadConfig(path: string, options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const file = resolve(path);
  return parseConfigText(await readConfigText(file), file, options);
}

/** The text of the config file at the absolute path `file`; a `ConfigError` naming it when it cannot be read. */
export async function readConfigText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const message = describeReadError(error, file);
    throw new ConfigError({ issues: [{ path: '', message }], file, message, cause: error });
  }
}

/**
 * The second half of `loadConfig`: JSONC text read from the absolute path `file` → `parseConfig`, relative paths
 * against the file's directory. The config watcher reads once and parses the same text it compared.
 */
export function parseConfigText(text: string, file: string, options: LoadConfigOptions = {}): ResolvedConfig {
  let value: unknown;
  try {
    value = parseJsonWithComments(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new ConfigError({ issues: [{ path: '', message: error.message }], file });
  }

  const projectDirectory = options.projectDirectory ?? process.cwd();
  const secrets = options.secrets ?? keyringSecretResolver(options.env ?? process.env);
  return parseConfig(value, { env: options.env, secrets, file, baseDir: dirname(file), projectDirectory });
}

/** Why `file` could not be read, naming the path (never its content). Shared with client config discovery. */
export function describeReadError(error: unknown, file: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return `Config file not found: ${file}`;
    case 'EISDIR':
      return `Config path is a directory, not a file: ${file}`;
    case 'EACCES':
    case 'EPERM':
      return `Config file is not readable (permission denied): ${file}`;
    default:
      return `Cannot read config file ${file}${typeof code === 'string' ? ` (${code})` : ''}`;
  }
}
