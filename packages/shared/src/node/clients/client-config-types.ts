/** Types of other MCP clients' config files, as `search-mcp init` finds, merges and replaces them. */

/** The MCP clients whose config files `discoverClientConfigs` knows. */
export type McpClientName = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'windsurf';

/**
 * Where a client keeps a server list: `user` (for every project of this user), `project` (a file in the project,
 * often shared through version control) or `local` (Claude Code: one project, kept in the user's `~/.claude.json`).
 */
export type ClientConfigScope = 'user' | 'project' | 'local';

/** One server entry as the client wrote it (its own words: `serverUrl`, `disabled`, `"type": "stdio"`…). */
export type ClientServerEntry = Record<string, unknown>;

/** One client config file found on this machine. */
export interface FoundClientConfig {
  client: McpClientName;
  scope: ClientConfigScope;
  /** Absolute path of the file. */
  path: string;
  /**
   * Keys leading to the server list inside the file: `["mcpServers"]`, `["servers"]` (VS Code `mcp.json`),
   * `["mcp", "servers"]` (VS Code `settings.json`), `["projects", "<directory>", "mcpServers"]` (Claude Code local
   * scope). `replaceClientServers` rewrites exactly this place.
   */
  serverListPath: string[];
  /** The server entries by name, in file order; entries that are not objects are left out (see `problems`). */
  servers: Record<string, ClientServerEntry>;
  /**
   * What kept this file (or an entry of it) from being read: unreadable, not JSON, a server list that is not an
   * object. Each names a JSON path or the reason, never a value, so it is safe to print. Empty when all is well.
   */
  problems: string[];
}

/** How each client is called in messages. */
export const clientDisplayNames: Readonly<Record<McpClientName, string>> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
};
