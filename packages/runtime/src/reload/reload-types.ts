/** The contracts of hot reload: what the reloader drives, and what it reports. Types only. */
import type { ResolvedConfig } from '@search-mcp/shared';

/** What one reconfiguration did to the backends (the client manager's `reconfigure` answer). */
export interface ServerReconfiguration {
  /** Started. */
  added: readonly string[];
  /** Stopped (process tree ended) and forgotten. */
  removed: readonly string[];
  /** Restarted with their new definition. */
  changed: readonly string[];
  /** Left running as they were. */
  unchanged: readonly string[];
  /** Global settings the manager keeps until a restart (e.g. its watchdog). */
  notApplied?: readonly string[];
}

/** Starts added servers, stops removed ones, restarts changed ones: `McpClientManager` of the runtime. */
export interface ReconfigurableServers {
  reconfigure(config: ResolvedConfig): Promise<ServerReconfiguration>;
  /** Each server's state after the reload, so servers that failed to start can be named with their reason. */
  status?(): ReadonlyArray<{ id: string; state: string; lastError?: string }>;
}

/**
 * The catalog's view of the config (projects, tokens, search strategy, server visibility). A catalog that can take
 * a new config live has `reconfigure`, which may return the settings it could not apply; without it the reloader
 * says which settings need a restart.
 */
export interface ReconfigurableCatalog {
  readonly config: ResolvedConfig;
  reconfigure?(config: ResolvedConfig): undefined | readonly string[];
}

/** One applied reload. */
export interface ConfigReload {
  previous: ResolvedConfig;
  config: ResolvedConfig;
  servers: ServerReconfiguration;
  /** Settings (JSON paths) that changed in the file but apply only after a restart. */
  notApplied: readonly string[];
}
