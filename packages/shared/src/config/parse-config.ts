/**
 * `parseConfig`: from a parsed config file (CONTRACT §2) to a `ResolvedConfig`: validated, defaults filled,
 * server ids normalized, `${VAR}` expanded, relative paths resolved. Every problem is collected and thrown as one
 * `ConfigError`, so a user fixes the file in one go. No I/O: `../node/load-config.ts` reads files.
 *
 * The parts: `server-ids.ts` (keys → ids), `resolve-server.ts` (one server entry), `resolve-sections.ts` (the other
 * sections), `parse-context.ts` (issues, validation, expansion), `config-path.ts` (how paths are written).
 */
import { isRecord } from '../text/is-record.js';
import { createRecord } from './config-values.js';
import { ParseContext, type ParseConfigOptions } from './parse-context.js';
import type { ResolvedConfig, ServerConfig } from './resolved-config.js';
import { resolveServer } from './resolve-server.js';
import { resolveAudit, resolveAuth, resolveExposure, resolveProjects, resolveSearch } from './resolve-sections.js';
import { describeValueType } from './schema-issue-message.js';
import { ServerIdAssigner } from './server-ids.js';

export type { ParseConfigOptions } from './parse-context.js';

// Brands objects returned by parseConfig, so parsing one again does not expand variables a second time.
const resolvedConfigs = new WeakSet<object>();

export function isResolvedConfig(value: unknown): value is ResolvedConfig {
  return typeof value === 'object' && value !== null && resolvedConfigs.has(value);
}

export function parseConfig(input: unknown, options: ParseConfigOptions = {}): ResolvedConfig {
  if (isResolvedConfig(input)) return input;

  const context = new ParseContext(options);
  if (!isRecord(input)) {
    context.report([], `expected an object, got ${describeValueType(input)}`);
    throw context.toError();
  }

  const mcpServers = resolveServers(input['mcpServers'], context);
  const exposure = resolveExposure(input['exposure'], context);
  const search = resolveSearch(input['search'], context);
  const projects = resolveProjects(input['projects'], search, context);
  const auth = resolveAuth(input['auth'], context);
  const audit = resolveAudit(input['audit'], context);

  if (
    context.issues.length > 0 ||
    mcpServers === undefined ||
    exposure === undefined ||
    search === undefined ||
    projects === undefined ||
    auth === undefined
  ) {
    throw context.toError();
  }

  const config: ResolvedConfig = {
    mcpServers,
    exposure,
    search,
    projects,
    auth,
    ...(audit !== undefined ? { audit } : {}),
  };
  resolvedConfigs.add(config);
  return config;
}

function resolveServers(value: unknown, context: ParseContext): Record<string, ServerConfig> | undefined {
  const path = ['mcpServers'];
  if (value === undefined) {
    context.report(path, 'required');
    return undefined;
  }
  if (!isRecord(value)) {
    context.report(path, `expected an object, got ${describeValueType(value)}`);
    return undefined;
  }

  const servers = createRecord<ServerConfig>();
  const ids = new ServerIdAssigner(context);
  for (const [key, entry] of Object.entries(value)) {
    const id = ids.assign(key);
    // Validated even when the key is unusable, so all of the entry's problems are reported at once.
    const server = resolveServer(entry, key, id ?? '', context);
    if (server !== undefined && id !== undefined) servers[id] = server;
  }
  return servers;
}
