/**
 * Where tool vectors are kept by default: `$XDG_CACHE_HOME/search-mcp/embeddings`, else
 * `~/.cache/search-mcp/embeddings` (on Windows `%LOCALAPPDATA%\search-mcp\cache\embeddings`). A cache, not data:
 * deleting it only costs the time to embed the tools again.
 */
import os from 'node:os';
import { isAbsolute, join } from 'node:path';

export function defaultCacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (typeof xdg === 'string' && isAbsolute(xdg)) return join(xdg, 'search-mcp', 'embeddings');
  const localAppData = env['LOCALAPPDATA'];
  if (process.platform === 'win32' && typeof localAppData === 'string' && isAbsolute(localAppData)) {
    return join(localAppData, 'search-mcp', 'cache', 'embeddings');
  }
  return join(os.homedir(), '.cache', 'search-mcp', 'embeddings');
}
