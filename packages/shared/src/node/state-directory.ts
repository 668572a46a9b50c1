/**
 * Search MCP's state folder (docs/trust.md, "Pinning and quarantine"): where what Search MCP learns at run time is
 * kept (the pins of tool definitions), shared by every CLI command and both apps. `$SEARCH_MCP_STATE_DIR`, else
 * `$XDG_STATE_HOME/search-mcp`, else `~/.local/state/search-mcp`. Only the path is computed here: the writer creates
 * the folder (mode 0700) when it first writes.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export const STATE_DIRECTORY_ENV_VARIABLE = 'SEARCH_MCP_STATE_DIR';

/** The state folder (absolute). `env` defaults to `process.env`, `home` to `os.homedir()`. */
export function stateDirectory(env: Record<string, string | undefined> = process.env, home?: string): string {
  const explicit = env[STATE_DIRECTORY_ENV_VARIABLE]?.trim();
  if (explicit) return resolve(explicit);
  const stateHome = env.XDG_STATE_HOME?.trim();
  // The XDG spec ignores relative values: they would depend on the working directory.
  if (stateHome && isAbsolute(stateHome)) return join(stateHome, 'search-mcp');
  return join(home ?? homedir(), '.local', 'state', 'search-mcp');
}
