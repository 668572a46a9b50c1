import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDirectory } from '@search-mcp/shared/node';

/**
 * The npm cache of one sandboxed server: `<state folder>/sandbox-npm-cache/<server id>` (docs/trust.md, "Sandboxed
 * servers"). Never the host's `~/.npm`: npx keeps the packages it runs there (`_npx/…/node_modules`), and a server
 * that could write it would change what unsandboxed npx servers run later. It starts empty and fills from the
 * registry on the first start with network.
 */
export function sandboxNpmCache(serverId: string): string {
  // A server id may hold any character: one folder per id, never a path that climbs out (`..`, `/`).
  const folder = encodeURIComponent(serverId).replace(/\./g, '%2E');
  const cache = join(stateDirectory(process.env), 'sandbox-npm-cache', folder);
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  return cache;
}

/** An empty cache and no network: npx could run nothing, so the start fails with what to do instead. */
export function refuseEmptyOfflineCache(serverId: string, cache: string): void {
  if (readdirSync(cache).length > 0) return;
  throw new Error(
    `sandboxed server "${serverId}" runs npx without network and its own npm cache (${cache}) is empty: start it once with "network": true to fill the cache, or install the package and point "command" at it`,
  );
}

/**
 * The registry npm should use in the sandbox: the server's `npm_config_registry`, else the `registry=` line of the
 * host's npm user config. Only that setting crosses: `~/.npmrc` itself often holds `_authToken`s and stays out.
 */
export function hostNpmRegistry(env: Record<string, string>, home: string): string | undefined {
  const explicit = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY;
  if (explicit) return explicit;
  const userConfig = env.npm_config_userconfig ?? env.NPM_CONFIG_USERCONFIG ?? join(home, '.npmrc');
  if (!existsSync(userConfig)) return undefined;
  let text: string;
  try {
    text = readFileSync(userConfig, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*registry\s*=\s*(\S+)\s*$/.exec(line);
    if (match?.[1]) return match[1];
  }
  return undefined;
}
