import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

/**
 * A path as the kernel reaches it: absolute, `.`/`..` and trailing slashes gone, symlinks resolved when it exists.
 * A sandbox decides what to bind by comparing paths: `/root/`, `/root/.`, `/home/../root` and a symlink to the home
 * are all the home (docs/trust.md, "Sandboxed servers").
 */
export function normalizedPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/**
 * Every folder that is the user's home for a sandbox: the host's real home (`os.homedir()`), the host's `$HOME` and
 * the server's `HOME` (its config `env` may move it), each normalized. A folder holding any of them is never bound.
 */
export function homeFolders(serverEnv: Record<string, string>): string[] {
  const candidates = [homedir(), process.env.HOME, serverEnv.HOME].filter(
    (home): home is string => home !== undefined && home !== '',
  );
  return [...new Set(candidates.map(normalizedPath))];
}

/** `path` is `folder` or inside it (both normalized). */
export function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/** `folder` (normalized) is a home or an ancestor of one: binding it would show the whole home. */
export function holdsHome(folder: string, homes: readonly string[]): boolean {
  return homes.some((home) => isInside(home, folder));
}

/**
 * Refuses a configured sandbox path that is `/`, `~`, the home or an ancestor of it: it would give the server every
 * file of the user. There is no opt-in; list the folders inside the home the server needs instead.
 */
export function refuseHomeHolder(path: string, configured: string, homes: readonly string[]): void {
  const home = homes.find((candidate) => isInside(candidate, path));
  if (home === undefined) return;
  throw new Error(
    `sandbox path "${configured}" is the home folder or holds it (${home}): it would show every file of the user; list only the folders inside it the server needs`,
  );
}

/** A configured sandbox path with `~` made the user's home (the server's `HOME`, else the host's). */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? `${home}${path.slice(1)}` : path;
}
