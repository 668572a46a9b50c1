/**
 * `@search-mcp/shared/node`: finding and reading config files. The root entry does no I/O
 * (packages/shared/README.md, "Entries"), so everything that touches `node:` modules lives here.
 */
export { resolveConfigPath, CONFIG_PATH_ENV_VARIABLE } from './node/config-location.js';
export type { ConfigPathSource, ResolveConfigPathOptions, ResolvedConfigPath } from './node/config-location.js';
export { findAndLoadConfig } from './node/find-config.js';
export type { LoadedConfig } from './node/find-config.js';
export { loadConfig } from './node/load-config.js';
export type { LoadConfigOptions } from './node/load-config.js';
export { JsonSyntaxError, parseJsonWithComments } from './node/parse-json-with-comments.js';
export { watchConfigFile, DEFAULT_CONFIG_WATCH_DEBOUNCE_MS } from './node/watch-config-file.js';
export type { ConfigFileWatcher, WatchConfigFileOptions } from './node/watch-config-file.js';

export { clientDisplayNames } from './node/clients/client-config-types.js';
export type {
  ClientConfigScope,
  ClientServerEntry,
  FoundClientConfig,
  McpClientName,
} from './node/clients/client-config-types.js';
export { clientConfigLocations } from './node/clients/client-config-locations.js';
export type {
  ClientConfigLayout,
  ClientConfigLocation,
  ClientConfigLocationOptions,
} from './node/clients/client-config-locations.js';
export { discoverClientConfigs } from './node/clients/discover-client-configs.js';
export type { DiscoverClientConfigsOptions } from './node/clients/discover-client-configs.js';
export { mergeClientConfigs } from './node/clients/merge-client-configs.js';
export type {
  MergeClientConfigsOptions,
  MergedClientConfigs,
  MergedServerOrigin,
} from './node/clients/merge-client-configs.js';
export { DEFAULT_CLIENT_SERVER_NAME, renderClientSnippet } from './node/clients/render-client-snippet.js';
export type { ClientSnippet, ClientSnippetOptions } from './node/clients/render-client-snippet.js';
export { replaceClientServers, writeMergedConfig } from './node/clients/write-client-configs.js';
export type {
  ConfigWriteResult,
  ReplaceClientServersOptions,
  WriteMergedConfigOptions,
} from './node/clients/write-client-configs.js';
export { STATE_DIRECTORY_ENV_VARIABLE, stateDirectory } from './node/state-directory.js';
export { writeFileAtomically, type AtomicWriteOptions } from './node/atomic-file-write.js';
export { readTextIfExists, readTextIfExistsSync } from './node/read-text-if-exists.js';
export {
  deleteKeyringSecret,
  isSecretName,
  KEYRING_SERVICE,
  KEYRING_STORE_ENV_VARIABLE,
  KeyringUnavailableError,
  keyringSecretResolver,
  readKeyringSecret,
  writeKeyringSecret,
} from './node/os-keyring.js';
export { KEYRING_SECRET_INDEX_FILE, KeyringSecretIndex } from './node/keyring-secret-index.js';
