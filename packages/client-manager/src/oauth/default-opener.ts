import { spawn } from 'node:child_process';
import type { AuthorizationOpener } from './oauth-options.js';

/**
 * The default `openAuthorizationUrl`: the URL on stderr (never stdout: it belongs to stdio MCP), and the system
 * browser asked to open it (`open` on macOS, `start` on Windows, `xdg-open` elsewhere). A machine without a browser
 * still has the printed URL to copy.
 */
export const openInBrowser: AuthorizationOpener = (authorizationUrl, serverId) => {
  process.stderr.write(
    `Authorize Search MCP to use the MCP server '${serverId}' by opening:\n  ${authorizationUrl.href}\n`,
  );
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [authorizationUrl.href]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', authorizationUrl.href.replace(/&/g, '^&')]]
        : ['xdg-open', [authorizationUrl.href]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {
      // No browser here: the printed URL is the way.
    });
    child.unref();
  } catch {
    // Same: the printed URL is the way.
  }
};
