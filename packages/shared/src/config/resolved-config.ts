/** What `parseConfig` returns: validated, defaults filled, ids normalized, variables expanded. */

export type ServerTransportConfig = 'stdio' | 'http' | 'sse' | 'auto';

interface ServerConfigBase {
  /** The normalized server id (CONTRACT §2). */
  id: string;
  /** The `mcpServers` key as written. */
  name: string;
  enabled: boolean;
  /** `false` hides a tool from search and blocks its execution. */
  toolPermissions: Record<string, boolean>;
  /** Absent: the server belongs to no project (CONTRACT §5). */
  projects?: string[];
  timeoutMs: number;
  startupTimeoutMs: number;
  description?: string;
  category?: string;
  tags: string[];
}

export interface StdioServerConfig extends ServerConfigBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute when the config was read from a file (resolved against its directory). */
  cwd?: string;
}

export interface RemoteServerConfig extends ServerConfigBase {
  /** `auto`: Streamable HTTP, falling back to SSE on 400/404/405. */
  transport: 'http' | 'sse' | 'auto';
  url: string;
  headers: Record<string, string>;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export interface CloudSearchConfig {
  url: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface ResolvedConfig {
  /** Keyed by normalized server id, in file order. */
  mcpServers: Record<string, ServerConfig>;
  /** `pinned` holds tool keys formatted as `server:tool`. */
  exposure: { mode: 'meta' | 'proxy'; pinned: string[] };
  search: { strategy: 'bm25' | 'cloud' | 'off'; maxResults: number; cloud?: CloudSearchConfig };
  projects: Record<string, { optimization: 'bm25' | 'cloud' | null }>;
  auth: { tokens: Array<{ id: string; token: string; projects?: string[] }>; allowAnonymous: boolean };
  audit?: { file: string };
}
