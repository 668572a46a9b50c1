/**
 * Where each MCP client keeps its server lists, per platform. Pure: the platform, home directory, project directory
 * and environment are given, so tests lay out a fake macOS, Windows or Linux home in a temp directory.
 *
 * - Claude Desktop: `claude_desktop_config.json` in the app data directory (`~/Library/Application Support/Claude`,
 *   `%APPDATA%\Claude`, `$XDG_CONFIG_HOME/Claude` or `~/.config/Claude`).
 * - Claude Code: `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set): user scope `mcpServers` and local
 *   scope `projects[<project directory>].mcpServers`; project scope `.mcp.json` in the project.
 * - Cursor: `~/.cursor/mcp.json`, project `.cursor/mcp.json`.
 * - VS Code (and VS Code Insiders): user `mcp.json` (`servers`) and `settings.json` (`mcp.servers`, before VS Code
 *   1.102) in the `Code/User` app data directory; project `.vscode/mcp.json` (`servers`).
 * - Windsurf: `~/.codeium/windsurf/mcp_config.json`.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { VariableEnvironment } from '../../config/env-expansion.js';
import type { ClientConfigScope, McpClientName } from './client-config-types.js';

export interface ClientConfigLocationOptions {
  /** Whose paths to use; default `process.platform`. `darwin` and `win32` have their own, every other is Linux's. */
  platform?: NodeJS.Platform;
  /** Default `os.homedir()`. */
  homeDirectory?: string;
  /** The project whose project-scope files are read; default `process.cwd()`. */
  projectDirectory?: string;
  /** For `APPDATA`, `XDG_CONFIG_HOME` and `CLAUDE_CONFIG_DIR`; default `process.env`. */
  environment?: VariableEnvironment;
}

/**
 * How servers sit in the file: top-level `mcpServers` or `servers`, VS Code's `settings.json` (`mcp.servers`), or
 * Claude Code's `~/.claude.json` (user `mcpServers` and per-project `projects[<dir>].mcpServers`).
 */
export type ClientConfigLayout = 'mcpServers' | 'servers' | 'vscode-settings' | 'claude-code-state';

export interface ClientConfigLocation {
  client: McpClientName;
  /** For `claude-code-state`, `user`; the local scope is found inside the same file. */
  scope: ClientConfigScope;
  path: string;
  layout: ClientConfigLayout;
}

/** Every place a config file may be, in the order results are reported (and merged: earlier wins a name). */
export function clientConfigLocations(options: ClientConfigLocationOptions = {}): ClientConfigLocation[] {
  const platform = options.platform ?? process.platform;
  const environment = options.environment ?? process.env;
  const home = options.homeDirectory ?? homedir();
  const project = resolve(options.projectDirectory ?? process.cwd());
  const appData = applicationDataDirectory(platform, home, environment);
  const claudeCodeDirectory = nonEmpty(environment['CLAUDE_CONFIG_DIR']) ?? home;

  const locations: ClientConfigLocation[] = [
    {
      client: 'claude-desktop',
      scope: 'user',
      path: join(appData, 'Claude', 'claude_desktop_config.json'),
      layout: 'mcpServers',
    },
    {
      client: 'claude-code',
      scope: 'user',
      path: join(claudeCodeDirectory, '.claude.json'),
      layout: 'claude-code-state',
    },
    { client: 'claude-code', scope: 'project', path: join(project, '.mcp.json'), layout: 'mcpServers' },
    { client: 'cursor', scope: 'user', path: join(home, '.cursor', 'mcp.json'), layout: 'mcpServers' },
    { client: 'cursor', scope: 'project', path: join(project, '.cursor', 'mcp.json'), layout: 'mcpServers' },
  ];
  for (const edition of ['Code', 'Code - Insiders']) {
    const user = join(appData, edition, 'User');
    locations.push(
      { client: 'vscode', scope: 'user', path: join(user, 'mcp.json'), layout: 'servers' },
      { client: 'vscode', scope: 'user', path: join(user, 'settings.json'), layout: 'vscode-settings' },
    );
  }
  locations.push(
    { client: 'vscode', scope: 'project', path: join(project, '.vscode', 'mcp.json'), layout: 'servers' },
    {
      client: 'windsurf',
      scope: 'user',
      path: join(home, '.codeium', 'windsurf', 'mcp_config.json'),
      layout: 'mcpServers',
    },
  );
  // A project directory that is the home directory makes a project file and a user file one file: read it once.
  const seen = new Set<string>();
  return locations.filter((location) => {
    if (seen.has(location.path)) return false;
    seen.add(location.path);
    return true;
  });
}

/** Where desktop apps (Electron: Claude Desktop, VS Code) keep per-user data. */
function applicationDataDirectory(platform: NodeJS.Platform, home: string, environment: VariableEnvironment): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (platform === 'win32') return nonEmpty(environment['APPDATA']) ?? join(home, 'AppData', 'Roaming');
  return nonEmpty(environment['XDG_CONFIG_HOME']) ?? join(home, '.config');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
