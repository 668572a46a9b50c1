/**
 * `@search-mcp/shared/early-config`: what a host reads of its config before anything else loads, with Node
 * built-ins only (the CLI's `call` starts its server that early): where the config file is, whether an entry runs
 * Search MCP itself, the id a key becomes, and the log levels. `./node` exports the same config-location functions.
 */
export {
  CONFIG_PATH_ENV_VARIABLE,
  type ConfigPathSource,
  type ResolvedConfigPath,
  type ResolveConfigPathOptions,
  resolveConfigPath,
} from './node/config-location.js';
export { searchMcpInvocation } from './config/self-reference.js';
export { normalizeServerId } from './keys/server-id.js';
export { type LogLevel, logLevels } from './logging/logger.js';
