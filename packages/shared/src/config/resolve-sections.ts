/**
 * The sections beside the servers: exposure, search, projects, auth and audit. A problem here stops the file (these
 * settings apply to every server and every caller); unknown keys are warnings.
 */
import { formatToolKey, parseToolKey } from '../keys/tool-key.js';
import { isRecord } from '../text/is-record.js';
import type { ConfigPath } from './config-path.js';
import {
  auditSchema,
  authSchema,
  authTokenSchema,
  cloudSearchSchema,
  configFileSchema,
  exposureSchema,
  hybridSearchSchema,
  llmSearchSchema,
  projectSchema,
  searchSchema,
} from './config-schema.js';
import { isHttpUrl, mapRecord } from './config-values.js';
import type { ParseContext } from './parse-context.js';
import type {
  CloudSearchConfig,
  HybridSearchConfig,
  LlmSearchConfig,
  ResolvedConfig,
  SearchConfig,
} from './resolved-config.js';
import { warnUnknownKeys } from './unknown-keys.js';

const sectionSchemas = configFileSchema.shape;
const keysOf = (schema: { shape: object }) => Object.keys(schema.shape);

export function resolveExposure(value: unknown, context: ParseContext): ResolvedConfig['exposure'] | undefined {
  warnUnknownKeys(value, keysOf(exposureSchema), ['exposure'], context);
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
  return { mode: exposure.mode, names: exposure.names, pinned };
}

export function resolveSearch(value: unknown, context: ParseContext): SearchConfig | undefined {
  warnSearchUnknownKeys(value, context);
  const search = context.validate(sectionSchemas.search, value, ['search']);
  if (search === undefined) return undefined;
  if (search.strategy === 'cloud' && search.cloud === undefined) {
    context.report(['search', 'cloud', 'url'], 'required when search.strategy is "cloud"');
  }
  const cloud = search.cloud === undefined ? undefined : resolveCloud(search.cloud, context);
  const llm = search.llm === undefined ? undefined : resolveLlm(search.llm, context);
  const hybrid = search.hybrid === undefined ? undefined : resolveHybrid(search.hybrid, context);
  return {
    strategy: search.strategy,
    maxResults: search.maxResults,
    ...(cloud !== undefined ? { cloud } : {}),
    ...(llm !== undefined ? { llm } : {}),
    ...(hybrid !== undefined ? { hybrid } : {}),
  };
}

/**
 * Fills `search.llm` / `search.hybrid` with their defaults when a strategy (global or a project's) uses them but
 * the section is not written, so the provider always finds its settings in one place.
 */
export function withSettingsOfUsedStrategies(search: SearchConfig, projects: ResolvedConfig['projects']): SearchConfig {
  const used = new Set<string>([search.strategy]);
  for (const project of Object.values(projects)) if (project.optimization !== null) used.add(project.optimization);
  const filled = { ...search };
  if (used.has('llm') && filled.llm === undefined) filled.llm = resolveLlm(llmSearchSchema.parse({}), undefined);
  if (used.has('hybrid') && filled.hybrid === undefined) filled.hybrid = {};
  return filled;
}

function warnSearchUnknownKeys(value: unknown, context: ParseContext): void {
  warnUnknownKeys(value, keysOf(searchSchema), ['search'], context);
  if (!isRecord(value)) return;
  const nested: Array<[string, { shape: object }]> = [
    ['cloud', cloudSearchSchema],
    ['llm', llmSearchSchema],
    ['hybrid', hybridSearchSchema],
  ];
  for (const [name, schema] of nested) warnUnknownKeys(value[name], keysOf(schema), ['search', name], context);
}

type Parsed<Schema extends { parse: (value: unknown) => unknown }> = ReturnType<Schema['parse']>;

function resolveCloud(cloud: Parsed<typeof cloudSearchSchema>, context: ParseContext): CloudSearchConfig {
  const url = context.expand(cloud.url, ['search', 'cloud', 'url']);
  if (url.complete && !isHttpUrl(url.value))
    context.report(['search', 'cloud', 'url'], 'expected an http or https URL');
  const resolved: CloudSearchConfig = { url: url.value, timeoutMs: cloud.timeoutMs };
  if (cloud.apiKey !== undefined) resolved.apiKey = context.expand(cloud.apiKey, ['search', 'cloud', 'apiKey']).value;
  return resolved;
}

/** Without a context (defaults only) nothing is expanded or reported. */
function resolveLlm(llm: Parsed<typeof llmSearchSchema>, context: ParseContext | undefined): LlmSearchConfig {
  const resolved: LlmSearchConfig = { model: llm.model, timeoutMs: llm.timeoutMs, candidates: llm.candidates };
  if (context === undefined) return resolved;
  const path: ConfigPath = ['search', 'llm'];
  if (llm.baseUrl !== undefined) {
    const baseUrl = context.expand(llm.baseUrl, [...path, 'baseUrl']);
    if (baseUrl.complete && !isHttpUrl(baseUrl.value)) {
      context.report([...path, 'baseUrl'], 'expected an http or https URL');
    }
    resolved.baseUrl = baseUrl.value;
  }
  if (llm.apiKey !== undefined) resolved.apiKey = context.expand(llm.apiKey, [...path, 'apiKey']).value;
  return resolved;
}

function resolveHybrid(hybrid: Parsed<typeof hybridSearchSchema>, context: ParseContext): HybridSearchConfig {
  const resolved: HybridSearchConfig = {};
  if (hybrid.cacheDirectory !== undefined) {
    const directory = context.expand(hybrid.cacheDirectory, ['search', 'hybrid', 'cacheDirectory']);
    resolved.cacheDirectory = context.resolvePath(directory.value);
  }
  if (hybrid.bm25Weight !== undefined) resolved.bm25Weight = hybrid.bm25Weight;
  return resolved;
}

export function resolveProjects(
  value: unknown,
  search: SearchConfig | undefined,
  context: ParseContext,
): ResolvedConfig['projects'] | undefined {
  if (isRecord(value)) {
    for (const [name, project] of Object.entries(value)) {
      warnUnknownKeys(project, keysOf(projectSchema), ['projects', name], context);
    }
  }
  const projects = context.validate(sectionSchemas.projects, value, ['projects']);
  if (projects === undefined) return undefined;
  // A project without `optimization` searches like everyone else.
  const strategy = search?.strategy ?? 'bm25';
  const inherited = strategy === 'off' ? null : strategy;
  return mapRecord(projects, (_name, project) => ({
    optimization: project.optimization === undefined ? inherited : project.optimization,
  }));
}

export function resolveAuth(value: unknown, context: ParseContext): ResolvedConfig['auth'] | undefined {
  warnUnknownKeys(value, keysOf(authSchema), ['auth'], context);
  const writtenTokens = isRecord(value) ? value['tokens'] : undefined;
  if (Array.isArray(writtenTokens)) {
    writtenTokens.forEach((token, index) => {
      warnUnknownKeys(token, keysOf(authTokenSchema), ['auth', 'tokens', index], context);
    });
  }
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

export function resolveAudit(value: unknown, context: ParseContext): ResolvedConfig['audit'] {
  warnUnknownKeys(value, keysOf(auditSchema), ['audit'], context);
  const audit = context.validate(sectionSchemas.audit, value, ['audit']);
  return audit === undefined ? undefined : { file: context.resolvePath(audit.file) };
}
