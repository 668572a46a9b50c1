import { spawn } from 'node:child_process';
import type { AuthorizationOpener } from './oauth-options.js';

/**
 * The default `openAuthorizationUrl`: the URL on stderr (never stdout: it belongs to stdio MCP), and a browser asked
 * to open it: the command in `$BROWSER` when set (the convention of `xdg-open`, git and Python: a headless machine or a
 * test names its own), else `open` on macOS, the URL protocol handler on Windows (`rundll32
 * url.dll,FileProtocolHandler`), `xdg-open` elsewhere, each run without a shell (a `$BROWSER` command runs through
 * one, the URL single-quoted). A machine without a browser still has the printed URL to copy.
 */
export const openInBrowser: AuthorizationOpener = (authorizationUrl, serverId) => {
  const url = authorizationUrl.href;
  process.stderr.write(`Authorize Search MCP to use the MCP server '${serverId}' by opening:\n  ${url}\n`);
  const browser = process.env.BROWSER?.trim();
  try {
    const child = browser
      ? // A URL has no `'` left unescaped once it is one: quoting it whole is safe for the shell.
        spawn(`${browser} '${url.replace(/'/g, '%27')}'`, { shell: true, stdio: 'ignore', detached: true })
      : spawn(...systemOpener(url), { stdio: 'ignore', detached: true });
    child.on('error', () => {
      // No browser here: the printed URL is the way.
    });
    child.unref();
  } catch {
    // Same: the printed URL is the way.
  }
};

function systemOpener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  // Not `cmd /c start`: cmd would expand `%VAR%` and read `|` in a URL an authorization server chose.
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}
