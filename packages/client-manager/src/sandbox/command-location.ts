import { accessSync, constants, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The file a command names: itself when it holds a slash, else the first executable of that name on `PATH` (as
 * `spawn` finds it), symlinks resolved. `undefined` when there is none.
 */
export function locateCommand(command: string, env: Record<string, string>, cwd?: string): string | undefined {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd ?? process.cwd(), command)]
    : (env.PATH ?? process.env.PATH ?? '')
        .split(delimiter)
        .filter((folder) => folder !== '')
        .map((folder) => join(folder, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The folder a command was installed with: for `…/bin/node` (or `…/lib/node_modules/npm/bin/npx-cli.js`, where
 * `npx` leads) the prefix above `bin` or `lib`, so the sandbox sees the whole installation (its `lib`, its
 * `node_modules`); else the command's own folder.
 */
export function installationOf(file: string): string {
  const parts = file.split('/');
  const nodeModules = parts.lastIndexOf('node_modules');
  if (nodeModules > 1 && parts[nodeModules - 1] === 'lib') return parts.slice(0, nodeModules - 1).join('/') || '/';
  const folder = dirname(file);
  return basename(folder) === 'bin' ? dirname(folder) : folder;
}
