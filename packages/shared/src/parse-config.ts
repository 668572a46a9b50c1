/**
 * `parseConfig`: from a parsed config file (CONTRACT §2) to a `ResolvedConfig`: validated, defaults filled,
 * server ids normalized, `${VAR}` expanded, relative paths resolved. Every problem is collected and thrown as one
 * `ConfigError`, so a user fixes the file in one go. No I/O: `./node.ts` reads files.
 */
import type * as z from 'zod';
import {
  configFileSchema,
  describeSchemaIssue,
  serverEntrySchema,
  type CloudSearchConfig,
  type RemoteServerConfig,
  type ResolvedConfig,
  type ServerConfig,
  type StdioServerConfig,
} from './config-schema.js';
import { containsVariableReference, expandVariables, type VariableEnvironment } from './env-expansion.js';
import { ConfigError, type Issue } from './errors.js';
import { normalizeServerId } from './server-id.js';
import { formatToolKey, parseToolKey } from './tool-key.js';

export interface ParseConfigOptions {
  /** Variables for `${VAR}`; default `process.env` where there is one. */
  env?: VariableEnvironment;
  /** The file the config came from, named in the error. */
  file?: string;
  /** Directory that relative `cwd` and `audit.file` are resolved against (the config file's directory). */
  baseDir?: string;
}

type PathSegment = string | number;
type ConfigPath = readonly PathSegment[];
type ServerEntry = z.output<typeof serverEntrySchema>;
type SearchSection = ResolvedConfig['search'];
const sectionSchemas = configFileSchema.shape;

// Brands objects returned by parseConfig, so parsing one again does not expand variables a second time.
const resolvedConfigs = new WeakSet<object>();

export function isResolvedConfig(value: unknown): value is ResolvedConfig {
  return typeof value === 'object' && value !== null && resolvedConfigs.has(value);
}

export function parseConfig(input: unknown, options: ParseConfigOptions = {}): ResolvedConfig {
  if (isResolvedConfig(input)) return input;

  const context = new ParseContext(options);
  if (!isPlainObject(input)) {
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

/** Collects issues and holds what every section needs: variables and the base directory. */
class ParseContext {
  readonly issues: Issue[] = [];
  private readonly env: VariableEnvironment;

  constructor(private readonly options: ParseConfigOptions) {
    this.env = options.env ?? globalThis.process?.env ?? {};
  }

  report(path: ConfigPath, message: string): void {
    this.issues.push({ path: formatConfigPath(path), message });
  }

  /** Validates `value` with `schema`, reporting each issue under `path`; undefined when invalid. */
  validate<Schema extends z.ZodType>(schema: Schema, value: unknown, path: ConfigPath): z.output<Schema> | undefined {
    const result = schema.safeParse(value, { error: describeSchemaIssue });
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      this.report([...path, ...issue.path.map(toPathSegment)], issue.message);
    }
    return undefined;
  }

  /** Expands `${VAR}` references; an unset variable without default is reported under `path`. */
  expand(text: string, path: ConfigPath): { value: string; complete: boolean } {
    const { value, missing } = expandVariables(text, this.env);
    for (const name of missing) this.report(path, `environment variable ${name} is not set`);
    return { value, complete: missing.length === 0 };
  }

  /** Makes a relative file path absolute against the base directory, when there is one. */
  resolvePath(filePath: string): string {
    const baseDir = this.options.baseDir;
    if (baseDir === undefined || baseDir === '' || isAbsolutePath(filePath)) return filePath;
    return `${baseDir.replace(/[\\/]+$/, '')}/${filePath}`;
  }

  toError(): ConfigError {
    return new ConfigError({ issues: this.issues, file: this.options.file });
  }
}

function resolveServers(value: unknown, context: ParseContext): Record<string, ServerConfig> | undefined {
  const path = ['mcpServers'];
  if (value === undefined) {
    context.report(path, 'required');
    return undefined;
  }
  if (!isPlainObject(value)) {
    context.report(path, `expected an object, got ${describeValueType(value)}`);
    return undefined;
  }

  const servers: Record<string, ServerConfig> = {};
  const keyById = new Map<string, string>();
  for (const [key, entry] of Object.entries(value)) {
    const id = normalizeServerId(key);
    if (id === undefined) {
      context.report([...path, key], 'cannot be made into a server id: it needs at least one letter or digit');
    } else {
      const firstKey = keyById.get(id);
      if (firstKey !== undefined) {
        context.report(
          path,
          `${JSON.stringify(firstKey)} and ${JSON.stringify(key)} both normalize to server id ${JSON.stringify(id)}`,
        );
      } else {
        keyById.set(id, key);
      }
    }
    // Validated even when the key is unusable, so all of the entry's problems are reported at once.
    const server = resolveServer(entry, key, id ?? '', context);
    if (server !== undefined && id !== undefined && servers[id] === undefined) servers[id] = server;
  }
  return servers;
}

function resolveServer(value: unknown, key: string, id: string, context: ParseContext): ServerConfig | undefined {
  const path = ['mcpServers', key];
  const entry = context.validate(serverEntrySchema, value, path);
  if (entry === undefined) return undefined;

  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && hasUrl) {
    context.report(path, 'has both "command" and "url": a server is either local ("command") or remote ("url")');
    return undefined;
  }
  if (entry.command !== undefined) {
    if (entry.type !== undefined && entry.type !== 'stdio') {
      context.report([...path, 'type'], `a remote type needs "url"; with "command" use "stdio" or leave "type" out`);
      return undefined;
    }
    return resolveStdioServer(entry, entry.command, key, id, context);
  }
  if (entry.url !== undefined) {
    if (entry.type === 'stdio') {
      context.report([...path, 'type'], '"stdio" needs "command"; with "url" use "http", "sse" or leave "type" out');
      return undefined;
    }
    return resolveRemoteServer(entry, entry.url, key, id, context);
  }
  context.report(path, 'needs "command" (a local stdio server) or "url" (a remote server)');
  return undefined;
}

function resolveServerBase(entry: ServerEntry, key: string, id: string) {
  return {
    id,
    name: key,
    enabled: entry.enabled,
    toolPermissions: { ...entry.toolPermissions },
    ...(entry.projects !== undefined ? { projects: [...entry.projects] } : {}),
    timeoutMs: entry.timeoutMs,
    startupTimeoutMs: entry.startupTimeoutMs,
    ...(entry.description !== undefined ? { description: entry.description } : {}),
    ...(entry.category !== undefined ? { category: entry.category } : {}),
    tags: [...entry.tags],
  };
}

/**
 * Expands a disabled server's fields not at all: its variables may be unset on purpose, and a disabled server
 * must not block start-up.
 */
function serverExpander(entry: ServerEntry, key: string, context: ParseContext) {
  return (text: string, subpath: ConfigPath): { value: string; complete: boolean } =>
    entry.enabled ? context.expand(text, ['mcpServers', key, ...subpath]) : { value: text, complete: false };
}

function resolveStdioServer(
  entry: ServerEntry,
  command: string,
  key: string,
  id: string,
  context: ParseContext,
): StdioServerConfig {
  const expand = serverExpander(entry, key, context);
  const server: StdioServerConfig = {
    ...resolveServerBase(entry, key, id),
    transport: 'stdio',
    command: expand(command, ['command']).value,
    args: entry.args.map((argument, index) => expand(argument, ['args', index]).value),
    env: mapRecord(entry.env, (variable, text) => expand(text, ['env', variable]).value),
  };
  if (entry.cwd !== undefined) {
    const cwd = expand(entry.cwd, ['cwd']);
    // A disabled server's cwd stays as written while it still holds variables.
    server.cwd = cwd.complete || !containsVariableReference(entry.cwd) ? context.resolvePath(cwd.value) : cwd.value;
  }
  return server;
}

function resolveRemoteServer(
  entry: ServerEntry,
  url: string,
  key: string,
  id: string,
  context: ParseContext,
): RemoteServerConfig {
  const expand = serverExpander(entry, key, context);
  const expandedUrl = expand(url, ['url']);
  // A disabled server's URL is still checked when it holds no variables: that much is known to be wrong.
  if ((expandedUrl.complete || !containsVariableReference(url)) && !isHttpUrl(expandedUrl.value)) {
    context.report(['mcpServers', key, 'url'], 'expected an http or https URL');
  }
  return {
    ...resolveServerBase(entry, key, id),
    transport: entry.type === undefined ? 'auto' : entry.type === 'sse' ? 'sse' : 'http',
    url: expandedUrl.value,
    headers: mapRecord(entry.headers, (header, text) => expand(text, ['headers', header]).value),
  };
}

function resolveExposure(value: unknown, context: ParseContext): ResolvedConfig['exposure'] | undefined {
  const exposure = context.validate(sectionSchemas.exposure, value, ['exposure']);
  if (exposure === undefined) return undefined;
  const pinned: string[] = [];
  exposure.pinned.forEach((toolKey, index) => {
    const parsed = parseToolKey(toolKey);
    if (parsed === undefined) {
      context.report(
        ['exposure', 'pinned', index],
        'expected a tool key "server:tool" (a server id, then ":", "." or "__", then the tool name)',
      );
      return;
    }
    const formatted = formatToolKey(parsed.serverId, parsed.toolName);
    if (!pinned.includes(formatted)) pinned.push(formatted);
  });
  return { mode: exposure.mode, pinned };
}

function resolveSearch(value: unknown, context: ParseContext): SearchSection | undefined {
  const search = context.validate(sectionSchemas.search, value, ['search']);
  if (search === undefined) return undefined;
  if (search.strategy === 'cloud' && search.cloud === undefined) {
    context.report(['search', 'cloud', 'url'], 'required when search.strategy is "cloud"');
  }
  let cloud: CloudSearchConfig | undefined;
  if (search.cloud !== undefined) {
    const url = context.expand(search.cloud.url, ['search', 'cloud', 'url']);
    if (url.complete && !isHttpUrl(url.value))
      context.report(['search', 'cloud', 'url'], 'expected an http or https URL');
    cloud = { url: url.value, timeoutMs: search.cloud.timeoutMs };
    if (search.cloud.apiKey !== undefined) {
      cloud.apiKey = context.expand(search.cloud.apiKey, ['search', 'cloud', 'apiKey']).value;
    }
  }
  return { strategy: search.strategy, maxResults: search.maxResults, ...(cloud !== undefined ? { cloud } : {}) };
}

function resolveProjects(
  value: unknown,
  search: SearchSection | undefined,
  context: ParseContext,
): ResolvedConfig['projects'] | undefined {
  const projects = context.validate(sectionSchemas.projects, value, ['projects']);
  if (projects === undefined) return undefined;
  // A project without `optimization` searches like everyone else.
  const strategy = search?.strategy ?? 'bm25';
  const inherited = strategy === 'off' ? null : strategy;
  return mapRecord(projects, (_name, project) => ({
    optimization: project.optimization === undefined ? inherited : project.optimization,
  }));
}

function resolveAuth(value: unknown, context: ParseContext): ResolvedConfig['auth'] | undefined {
  const auth = context.validate(sectionSchemas.auth, value, ['auth']);
  if (auth === undefined) return undefined;
  const seenIds = new Set<string>();
  const tokens = auth.tokens.map((entry, index) => {
    const path = ['auth', 'tokens', index];
    if (seenIds.has(entry.id)) context.report([...path, 'id'], 'duplicate token id');
    seenIds.add(entry.id);
    const token = context.expand(entry.token, [...path, 'token']);
    // An empty token would let an empty bearer string authenticate.
    if (token.complete && token.value === '') context.report([...path, 'token'], 'expected a non-empty token');
    return {
      id: entry.id,
      token: token.value,
      ...(entry.projects !== undefined ? { projects: [...entry.projects] } : {}),
    };
  });
  return { tokens, allowAnonymous: auth.allowAnonymous };
}

function resolveAudit(value: unknown, context: ParseContext): ResolvedConfig['audit'] {
  const audit = context.validate(sectionSchemas.audit, value, ['audit']);
  return audit === undefined ? undefined : { file: context.resolvePath(audit.file) };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `mcpServers.github.env.TOKEN`, `mcpServers["My Server"].args[2]`: dots for identifiers, JSON-quoted brackets else. */
export function formatConfigPath(path: ConfigPath): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) formatted += formatted === '' ? segment : `.${segment}`;
    else formatted += `[${JSON.stringify(segment)}]`;
  }
  return formatted;
}

function toPathSegment(segment: PropertyKey): PathSegment {
  return typeof segment === 'symbol' ? String(segment) : segment;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

// Object.fromEntries defines own properties, so a key like "__proto__" stays a plain key.
function mapRecord<Value, Result>(
  record: Record<string, Value>,
  transform: (key: string, value: Value) => Result,
): Record<string, Result> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, transform(key, value)]));
}

function isAbsolutePath(filePath: string): boolean {
  return filePath.startsWith('/') || filePath.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(filePath);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
