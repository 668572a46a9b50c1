import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type PrestartedServer, prestartStdioServer } from '@search-mcp/client-manager/prestart';
import {
  type LogLevel,
  logLevels,
  normalizeServerId,
  resolveConfigPath,
  searchMcpInvocation,
} from '@search-mcp/shared/early-config';
import { cliOptions } from './cli-option-table.js';

/** The options a prestarted `call` may carry: none of them changes which server runs or whether it may. */
const prestartOptions = new Set(['config', 'json', 'log-level', 'mode']);

/** Keys of an entry that change nothing about how its process is started, each with the type the config wants. */
const launchNeutralKeys: Readonly<Record<string, (value: unknown) => boolean>> = {
  description: (value) => typeof value === 'string',
  category: (value) => typeof value === 'string',
  tags: (value) => Array.isArray(value) && value.every((tag) => typeof tag === 'string'),
  timeoutMs: isPositiveInteger,
  startupTimeoutMs: isPositiveInteger,
  toolPermissions: (value) => isObject(value) && Object.values(value).every((allowed) => typeof allowed === 'boolean'),
  type: (value) => value === 'stdio',
  enabled: (value) => value === true,
  protocol: (value) => value === 'auto',
};

/**
 * `search-mcp call server:tool` starts its server here, before the runtime and the SDKs load (~400 ms of imports on
 * a laptop, as long as a typical server's own start): the two then overlap instead of adding up. Only when the raw
 * command line and file say plainly what the runtime will run (apps/stdio-server/README.md, "call"):
 * - the command line is `call server:tool [JSON object]` with no option but `--config`, `--json`, `--log-level` and
 *   `--mode`, each valid (so no `--project`, which may hide the server);
 * - the file is plain JSON with `mcpServers` and neither `servers` (VS Code) nor `projects` (Claude Code's per
 *   directory entries, or Search MCP's own projects);
 * - the entry sits under its own id, no other key becomes that id, and it has `command`, `args`, `env` and an
 *   absolute `cwd` without `${…}`, no sandbox, no pinned protocol, not disabled, and nothing else but well-typed keys
 *   that do not change the launch.
 * The client manager adopts the process only if the launch it computes from the validated config is exactly this one,
 * and otherwise ends it unused (packages/client-manager/README.md, "Prestarted servers"): anything unusual here means
 * no prestart, never a different launch. Never throws.
 */
export function prestartCallServer(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): PrestartedServer[] {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: cliOptions,
    });
    const [command, toolKey = '', json] = positionals;
    if (command !== 'call' || positionals.length > 3 || !plainOptions(values)) return [];
    if (json !== undefined && !isObject(JSON.parse(json))) return [];
    const key = toolKey.trim();
    const serverId = key.slice(0, Math.max(0, key.indexOf(':')));
    if (normalizeServerId(serverId) !== serverId) return [];
    const found = resolveConfigPath({
      ...(typeof values.config === 'string' ? { cliPath: values.config } : {}),
      env,
      cwd,
    });
    if (found === undefined) return [];
    const file: unknown = JSON.parse(readFileSync(found.path, 'utf8'));
    if (!isObject(file) || Object.hasOwn(file, 'servers') || Object.hasOwn(file, 'projects')) return [];
    const servers = file['mcpServers'];
    if (!isObject(servers) || !Object.hasOwn(servers, serverId)) return [];
    // Two keys that become one id are a config error: neither server starts.
    const sameId = Object.keys(servers).filter((other) => normalizeServerId(other) === serverId);
    if (sameId.length !== 1) return [];
    const entry = servers[serverId];
    const launch = isObject(entry) ? plainLaunch(entry) : undefined;
    return launch ? [prestartStdioServer(serverId, launch)] : [];
  } catch {
    // Anything the full parse would report (or that we cannot read) is left to it.
    return [];
  }
}

function plainOptions(values: Record<string, unknown>): boolean {
  for (const [name, value] of Object.entries(values)) {
    // parseArgs fills in the booleans' defaults (`false`): those were not written.
    if (value === false || value === undefined) continue;
    if (!prestartOptions.has(name)) return false;
  }
  const { mode, 'log-level': logLevel } = values;
  if (mode !== undefined && mode !== 'meta' && mode !== 'proxy') return false;
  return logLevel === undefined || logLevels.includes(logLevel as LogLevel);
}

function plainLaunch(entry: Record<string, unknown>) {
  const { command, args = [], env = {}, cwd } = entry;
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'command' || key === 'args' || key === 'env' || key === 'cwd') continue;
    if (!launchNeutralKeys[key]?.(value)) return undefined;
  }
  if (!isPlainText(command) || command === '' || !Array.isArray(args) || !args.every(isPlainText)) return undefined;
  // An entry that runs Search MCP itself is skipped by the config (it would start itself).
  if (searchMcpInvocation(command, args) !== undefined) return undefined;
  if (!isObject(env) || !Object.values(env).every(isPlainText)) return undefined;
  // The config resolves a `cwd` against the file's directory; only one already absolute and normal reads the same.
  if (cwd !== undefined && !(isPlainText(cwd) && isAbsolute(cwd) && resolve(cwd) === cwd)) return undefined;
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

function isPositiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
