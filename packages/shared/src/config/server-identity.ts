/**
 * When two server entries are one server: the same `command` and `args` (a local server), or the same `url` (a
 * remote one). The one rule behind merging other clients' files (`mergeClientConfigs`) and duplicate warnings: the
 * name does not count (two clients often name one server differently), and neither do `env` or `headers` (one
 * server with two tokens is still one process to start).
 */
import type { ResolvedConfig } from './resolved-config.js';

/** What identifies a server: a resolved `ServerConfig` or an entry as written (after dialect words are mapped). */
export interface ServerIdentitySource {
  command?: string | undefined;
  args?: readonly string[] | undefined;
  url?: string | undefined;
}

/**
 * A string equal for two entries exactly when they are one server; undefined when the entry has neither a command
 * nor a URL (nothing to compare). `${env:VAR}` counts as `${VAR}`, and a URL is compared in its normal form
 * (host case, default port, trailing `/`).
 */
export function serverIdentityKey(entry: ServerIdentitySource): string | undefined {
  if (typeof entry.command === 'string' && entry.command !== '') {
    const args = Array.isArray(entry.args) ? entry.args : [];
    return JSON.stringify(['command', entry.command, ...args].map(withPlainVariables));
  }
  if (typeof entry.url === 'string' && entry.url !== '') {
    return JSON.stringify(['url', normalUrl(withPlainVariables(entry.url))]);
  }
  return undefined;
}

/**
 * Groups of server ids of `config` that are one server (each group at least two ids, in file order), for
 * `doctor`'s duplicate warning. Broken entries without a command or URL are left out.
 */
export function findDuplicateServers(config: ResolvedConfig): string[][] {
  const groups = new Map<string, string[]>();
  for (const server of Object.values(config.mcpServers)) {
    const key = serverIdentityKey(server.transport === 'stdio' ? server : { url: server.url });
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [server.id]);
    else group.push(server.id);
  }
  return [...groups.values()].filter((group) => group.length > 1);
}

function withPlainVariables(text: string): string {
  return text.replace(/\$\{env:/g, '${');
}

function normalUrl(text: string): string {
  try {
    return new URL(text).href.replace(/\/+$/, '');
  } catch {
    return text.trim().replace(/\/+$/, '');
  }
}
