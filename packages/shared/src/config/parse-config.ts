/**
 * `parseConfig`: from a parsed config file (packages/shared/README.md, "Configuration") to a `ResolvedConfig`: other
 * clients' dialects read, validated, defaults filled, server ids normalized, `${VAR}` expanded, relative paths
 * resolved.
 *
 * A config that forgives: a broken server entry is kept with a `configError` and never takes the others down; unknown
 * keys, skipped entries and dialect conflicts are `warnings`. Only a value that is not an object, a missing or
 * invalid server list, or an invalid top-level section (exposure, search, projects, auth, audit) throws one
 * `ConfigError` listing every problem, so a user fixes the file in one go. No I/O: `../node/load-config.ts` reads
 * files.
 *
 * The parts: `dialects.ts` (where servers are and other clients' words), `server-ids.ts` (keys → ids, collisions),
 * `resolve-server.ts` (one server entry), `resolve-sections.ts` (the other sections), `unknown-keys.ts` ("did you
 * mean"), `self-reference.ts`, `parse-context.ts` (issues, warnings, validation, expansion).
 */
import { rememberSubstitutedSecrets } from '../secrets/substituted-secrets.js';
import { isRecord } from '../text/is-record.js';
import { createRecord } from './config-values.js';
import { collectServerSources, isClaudeCodeProjects } from './dialects.js';
import { ParseContext, type ParseConfigOptions } from './parse-context.js';
import {
  resolveAudit,
  resolveAuth,
  resolveExposure,
  resolveProjects,
  resolveSearch,
  withSettingsOfUsedStrategies,
} from './resolve-sections.js';
import { resolveCluster } from './resolve-cluster.js';
import { resolveSecurity } from './resolve-security.js';
import { resolveServer } from './resolve-server.js';
import type { ResolvedConfig, ServerConfig } from './resolved-config.js';
import { describeValueType } from './schema-issue-message.js';
import { ServerIdAssigner } from './server-ids.js';
import { warnUnknownKeys } from './unknown-keys.js';

export type { ParseConfigOptions } from './parse-context.js';

/** Top-level keys read here. Any other top-level key is some client's own setting, so only likely typos warn. */
const topLevelKeys = [
  'mcpServers',
  'servers',
  'exposure',
  'search',
  'projects',
  'auth',
  'audit',
  'security',
  'cluster',
];

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
  warnUnknownKeys(input, topLevelKeys, [], context, { onlyWithSuggestion: true, ignored: new Set(['warnings']) });

  const mcpServers = resolveServers(input, context);
  const exposure = resolveExposure(input['exposure'], context);
  const search = resolveSearch(input['search'], context);
  // Claude Code's `projects` (keyed by directory) is not ours: it only adds servers (see `dialects.ts`).
  const projectsInput = isClaudeCodeProjects(input['projects']) ? undefined : input['projects'];
  const projects = resolveProjects(projectsInput, search, context);
  const auth = resolveAuth(input['auth'], context);
  const audit = resolveAudit(input['audit'], context);
  const security = resolveSecurity(input['security'], context);
  const cluster = resolveCluster(input['cluster'], context);

  if (
    context.issues.length > 0 ||
    mcpServers === undefined ||
    exposure === undefined ||
    search === undefined ||
    projects === undefined ||
    auth === undefined ||
    security === undefined
  ) {
    throw context.toError();
  }

  const config: ResolvedConfig = {
    mcpServers,
    exposure,
    search: withSettingsOfUsedStrategies(search, projects),
    projects,
    auth,
    ...(audit !== undefined ? { audit } : {}),
    security,
    ...(cluster !== undefined ? { cluster } : {}),
    warnings: context.warnings,
  };
  resolvedConfigs.add(config);
  rememberSubstitutedSecrets(config, context.secretValues);
  return config;
}

function resolveServers(
  input: Record<string, unknown>,
  context: ParseContext,
): Record<string, ServerConfig> | undefined {
  const sources = collectServerSources(input, context);
  if (sources === undefined) return undefined;

  const servers = createRecord<ServerConfig>();
  const ids = new ServerIdAssigner();
  for (const source of sources) {
    const assignment = ids.assign(source.key, source.path);
    if (assignment.kind === 'unusable') {
      context.warnings.push(assignment.warning);
      continue;
    }
    if (assignment.kind === 'collision') {
      context.warnings.push(assignment.warning);
      const first = servers[assignment.id];
      if (first !== undefined) {
        first.configError = first.configError ? `${first.configError}; ${assignment.reason}` : assignment.reason;
      }
      continue;
    }
    const server = resolveServer(source, assignment.id, context);
    if (server !== undefined) servers[assignment.id] = server;
  }
  return servers;
}
