import { realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** How an MCP client should start this Search MCP: a command and its arguments (without `--config`). */
export interface SearchMcpLaunch {
  command: string;
  args: string[];
  /** Why this form was chosen, for the report. */
  how: 'on-path' | 'npx' | 'node-script';
}

export interface SearchMcpLaunchOptions {
  /** The running script (`process.argv[1]`). */
  script: string;
  /** Default `process.env.PATH`. */
  path?: string;
  /** Default `process.execPath`. */
  nodePath?: string;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
}

/**
 * The command line a client's config should hold to start the Search MCP that runs now. Desktop apps often start
 * servers with a PATH of their own, so the plain `search-mcp` is used only when it is on PATH and is this very
 * program; a run from `npx` becomes `npx -y @search-mcp/cli` (npx's cache directory is not a place to point at);
 * anything else (a clone, a local install) is this Node and this script, by absolute path.
 */
export function searchMcpLaunch(options: SearchMcpLaunchOptions): SearchMcpLaunch {
  const script = realPath(options.script) ?? options.script;
  if (/[\\/]_npx[\\/]/.test(script)) return { command: 'npx', args: ['-y', '@search-mcp/cli'], how: 'npx' };
  const onPath = findOnPath('search-mcp', options.path ?? process.env['PATH'] ?? '', options.platform);
  if (onPath !== undefined && realPath(onPath) === script) return { command: 'search-mcp', args: [], how: 'on-path' };
  return { command: options.nodePath ?? process.execPath, args: [script], how: 'node-script' };
}

/**
 * The launch as words a person types in a shell to run this Search MCP again (`search-mcp`, `npx -y @search-mcp/cli`,
 * or `/usr/bin/node /…/dist/cli.js` when `search-mcp` is not on PATH): the start of every command init suggests.
 */
export function shellCommandOf(launch: SearchMcpLaunch): string {
  return [launch.command, ...launch.args].map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function findOnPath(name: string, path: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const names = platform === 'win32' ? [`${name}.cmd`, `${name}.exe`, name] : [name];
  for (const directory of path.split(delimiter)) {
    if (directory === '') continue;
    for (const candidate of names) {
      const file = join(directory, candidate);
      try {
        if (statSync(file).isFile()) return file;
      } catch {
        // Not in this directory.
      }
    }
  }
  return undefined;
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Whether a client's entry starts this very program (`node /…/node_modules/@search-mcp/cli/dist/cli.js`, as `init`
 * itself writes when `search-mcp` is not on PATH): such an entry is Search MCP itself, whatever its path looks like.
 */
export function startsThisProgram(entry: Record<string, unknown>, script: string): boolean {
  const own = realPath(script);
  if (own === undefined) return false;
  const words = [entry['command'], ...(Array.isArray(entry['args']) ? entry['args'] : [])];
  return words.some((word) => typeof word === 'string' && word.endsWith('.js') && realPath(word) === own);
}
