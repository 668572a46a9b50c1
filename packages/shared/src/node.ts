/**
 * `@search-mcp/shared/node`: finding and reading config files. The root entry does no I/O (CONTRACT §1), so
 * everything that touches `node:` modules lives here.
 */
export { findAndLoadConfig, resolveConfigPath, CONFIG_PATH_ENV_VARIABLE } from './node/find-config.js';
export type {
  ConfigPathSource,
  LoadedConfig,
  ResolveConfigPathOptions,
  ResolvedConfigPath,
} from './node/find-config.js';
export { loadConfig } from './node/load-config.js';
export type { LoadConfigOptions } from './node/load-config.js';
export { JsonSyntaxError, parseJsonWithComments } from './node/parse-json-with-comments.js';
