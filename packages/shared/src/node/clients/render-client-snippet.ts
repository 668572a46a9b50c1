/**
 * `renderClientSnippet`: what a client needs so that Search MCP is its one MCP server, in the client's own form —
 * JSON for the files of Claude Desktop, Cursor, Windsurf and VS Code, `claude mcp` command lines for Claude Code
 * (whose `~/.claude.json` is rewritten by Claude Code itself while it runs).
 */
import { createRecord } from '../../config/config-values.js';
import type { ClientConfigScope, ClientServerEntry, McpClientName } from './client-config-types.js';

export interface ClientSnippetOptions {
  /** How the client starts Search MCP, e.g. `npx` or `search-mcp`. */
  command: string;
  /** E.g. `["-y", "@search-mcp/cli", "--config", "/home/me/.config/search-mcp/config.json"]`. */
  args?: readonly string[];
  /** The server's name in the client; default `search-mcp`. */
  name?: string;
  /** Claude Code: the scope Search MCP is added in (default `user`). */
  scope?: ClientConfigScope;
  /**
   * Claude Code: servers to remove first (`claude mcp remove`), by name (in `scope`) or with their own scope, as
   * `discoverClientConfigs` found them.
   */
  replacing?: ReadonlyArray<string | { name: string; scope: ClientConfigScope }>;
  /** Claude Code: which shell the command lines are quoted for (`win32`: cmd/PowerShell); default `process.platform`. */
  platform?: NodeJS.Platform;
}

export interface ClientSnippet {
  client: McpClientName;
  /** `json`: the content of the client's MCP file; `shell`: command lines to run. */
  format: 'json' | 'shell';
  /** What to show the user, ending with a newline. */
  text: string;
  /** The client's whole server list afterwards: Search MCP alone. `replaceClientServers` writes this. */
  servers: Record<string, ClientServerEntry>;
  /** The top-level key of the list in the client's own MCP file (`servers` for VS Code, else `mcpServers`). */
  serverListKey: 'mcpServers' | 'servers';
}

export const DEFAULT_CLIENT_SERVER_NAME = 'search-mcp';

export function renderClientSnippet(client: McpClientName, options: ClientSnippetOptions): ClientSnippet {
  const name = options.name ?? DEFAULT_CLIENT_SERVER_NAME;
  const args = [...(options.args ?? [])];
  const servers = createRecord<ClientServerEntry>();
  // VS Code and Claude Code write the type of every entry; the others leave it out.
  servers[name] =
    client === 'vscode' || client === 'claude-code'
      ? { type: 'stdio', command: options.command, args }
      : { command: options.command, args };
  const serverListKey = client === 'vscode' ? 'servers' : 'mcpServers';

  if (client === 'claude-code') {
    const quote =
      options.platform === 'win32' || (options.platform === undefined && process.platform === 'win32')
        ? quoteForWindows
        : quoteForPosix;
    const scope = options.scope ?? 'user';
    const lines = (options.replacing ?? []).map((server) => {
      const [serverName, serverScope] = typeof server === 'string' ? [server, scope] : [server.name, server.scope];
      return ['claude', 'mcp', 'remove', '--scope', serverScope, serverName].map(quote).join(' ');
    });
    lines.push(['claude', 'mcp', 'add', '--scope', scope, name, '--', options.command, ...args].map(quote).join(' '));
    return { client, format: 'shell', text: `${lines.join('\n')}\n`, servers, serverListKey };
  }
  const text = `${JSON.stringify({ [serverListKey]: servers }, null, 2)}\n`;
  return { client, format: 'json', text, servers, serverListKey };
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

function quoteForPosix(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function quoteForWindows(word: string): string {
  return SAFE_WORD.test(word) || /^[A-Za-z]:\\[^\s"&|<>^%]*$/.test(word) ? word : `"${word.replace(/"/g, '\\"')}"`;
}
