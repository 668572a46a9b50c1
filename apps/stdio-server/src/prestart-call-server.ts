import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { parseArgs } from 'node:util';
import { type PrestartedServer, prestartStdioServer } from '@search-mcp/client-manager/prestart';
import { resolveConfigPath, searchMcpInvocation } from '@search-mcp/shared/early-config';
import { cliOptions } from './cli-option-table.js';

/** Keys of an entry that change nothing about how its process is started. */
const launchNeutralKeys = new Set([
  'description',
  'category',
  'tags',
  'timeoutMs',
  'startupTimeoutMs',
  'toolPermissions',
  'tools',
]);

/** A key that is already a server id as written (ids are lower case, digits and dashes, at most 32 characters). */
const plainServerId = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * `search-mcp call server:tool` starts its server here, before the runtime and the SDKs load (~400 ms of imports on
 * a laptop, as long as a typical server's own start): the two then overlap instead of adding up. Only for an entry
 * whose launch can be read from the raw file without the config's rules: a plain JSON `mcpServers` entry under
 * its own id with `command`, `args`, `env` and an absolute `cwd`, no `${…}` anywhere, no sandbox, no `projects`,
 * no pinned protocol, not disabled, and nothing else that the runtime would read differently. The client manager
 * adopts the process only if the launch it computes from the validated config is exactly this one, and otherwise
 * ends it unused (README of `@search-mcp/client-manager`, "Prestarted servers"); anything unusual here means no
 * prestart, never a different launch. Never throws.
 */
export function prestartCallServer(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): PrestartedServer[] {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: false,
      options: cliOptions,
    });
    if (positionals[0] !== 'call' || values.help || values.version) return [];
    const toolKey = positionals[1]?.trim() ?? '';
    const serverId = toolKey.slice(0, Math.max(0, toolKey.indexOf(':')));
    if (!plainServerId.test(serverId)) return [];
    const found = resolveConfigPath({
      ...(typeof values.config === 'string' ? { cliPath: values.config } : {}),
      env,
      cwd,
    });
    if (found === undefined) return [];
    const file: unknown = JSON.parse(readFileSync(found.path, 'utf8'));
    if (!isObject(file) || Object.hasOwn(file, 'servers') || !isObject(file['mcpServers'])) return [];
    const entry = file['mcpServers'][serverId];
    const launch = isObject(entry) ? plainLaunch(entry) : undefined;
    return launch ? [prestartStdioServer(serverId, launch)] : [];
  } catch {
    // Anything the full parse would report (or that we cannot read) is left to it.
    return [];
  }
}

function plainLaunch(entry: Record<string, unknown>) {
  const { command, args = [], env = {}, cwd } = entry;
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'command' || key === 'args' || key === 'env' || key === 'cwd' || launchNeutralKeys.has(key)) continue;
    if ((key === 'type' && value === 'stdio') || (key === 'enabled' && value === true)) continue;
    if (key === 'protocol' && value === 'auto') continue;
    return undefined;
  }
  if (!isPlainText(command) || command === '' || !Array.isArray(args) || !args.every(isPlainText)) return undefined;
  // An entry that runs Search MCP itself is skipped by the config (it would start itself).
  if (searchMcpInvocation(command, args) !== undefined) return undefined;
  if (!isObject(env) || !Object.values(env).every(isPlainText)) return undefined;
  if (cwd !== undefined && !(isPlainText(cwd) && isAbsolute(cwd))) return undefined;
  return {
    command,
    args,
    env: env as Record<string, string>,
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

/** A string without `$`: no variable reference of any of the config's kinds (`${VAR}`, `${env:VAR}`, `${keyring:…}`). */
function isPlainText(value: unknown): value is string {
  return typeof value === 'string' && !value.includes('$');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
