/**
 * The sections beside the servers: exposure, search, projects, auth and audit. A problem here stops the file (these
 * settings apply to every server and every caller); unknown keys are warnings.
 */
import { formatToolKey, parseToolKey } from '../keys/tool-key.js';
import { isRecord } from '../text/is-record.js';
import type { ConfigPath } from './config-path.js';
import {
  auditSchema,
  authOAuthSchema,
  authSchema,
  authTokenSchema,
  oauthRoleSchema,
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
  OAuthResourceConfig,
  RequiredClaimValue,
  CloudSearchConfig,
  HybridSearchConfig,
  LlmSearchConfig,
  ResolvedConfig,
  SearchConfig,
} from './resolved-config.js';
import { warnUnknownKeys } from './unknown-keys.js';
import type * as z from 'zod';

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
  const writtenOAuth = isRecord(value) ? value['oauth'] : undefined;
  warnUnknownKeys(writtenOAuth, keysOf(authOAuthSchema), ['auth', 'oauth'], context);
  const writtenRoles = isRecord(writtenOAuth) ? writtenOAuth['roles'] : undefined;
  if (Array.isArray(writtenRoles)) {
    writtenRoles.forEach((role, index) => {
      warnUnknownKeys(role, keysOf(oauthRoleSchema), ['auth', 'oauth', 'roles', index], context);
    });
  }
  const auth = context.validate(sectionSchemas.auth, value, ['auth']);
  if (auth === undefined) return undefined;
  const seenIds = new Set<string>();
  const tokens = auth.tokens.map((entry, index) => {
    const path = ['auth', 'tokens', index];
    if (seenIds.has(entry.id)) context.report([...path, 'id'], 'duplicate token id');
    // OAuth callers are known by `oauth:<sub>` (docs/oauth-in-front.md): a static token must not pass for one.
    if (entry.id.startsWith('oauth:')) context.report([...path, 'id'], 'ids starting with "oauth:" name OAuth callers');
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
  const oauth = auth.oauth === undefined ? undefined : resolveOAuthResource(auth.oauth, context);
  return { tokens, allowAnonymous: auth.allowAnonymous, ...(oauth ? { oauth } : {}) };
}

/** `auth.oauth` (docs/oauth-in-front.md): URLs checked, the client secret expanded, tool keys normalized. */
function resolveOAuthResource(
  written: NonNullable<z.output<typeof authSchema>['oauth']>,
  context: ParseContext,
): OAuthResourceConfig {
  const path = ['auth', 'oauth'];
  const url = (value: string, key: ConfigPath): string => {
    const expanded = context.expand(value, [...path, ...key]);
    if (expanded.complete && !isHttpUrl(expanded.value))
      context.report([...path, ...key], 'expected an http or https URL');
    return expanded.value;
  };
  const issuer = url(written.issuer, ['issuer']);
  const resolved: OAuthResourceConfig = { issuer };
  if (written.audience !== undefined) {
    const audiences = typeof written.audience === 'string' ? [written.audience] : written.audience;
    resolved.audience = audiences.map(
      (audience, index) =>
        context.expand(audience, [...path, 'audience', ...(typeof written.audience === 'string' ? [] : [index])]).value,
    );
  }
  if (written.jwksUri !== undefined) resolved.jwksUri = url(written.jwksUri, ['jwksUri']);
  if (written.introspection !== undefined) {
    const at = ['introspection'];
    resolved.introspection = {
      ...(written.introspection.url !== undefined ? { url: url(written.introspection.url, [...at, 'url']) } : {}),
      clientId: context.expand(written.introspection.clientId, [...path, ...at, 'clientId']).value,
      clientSecret: context.expand(written.introspection.clientSecret, [...path, ...at, 'clientSecret']).value,
    };
  }
  if (written.requiredScopes !== undefined) resolved.requiredScopes = [...written.requiredScopes];
  if (written.claims !== undefined) resolved.claims = copyClaims(written.claims);
  if (written.roles !== undefined) {
    resolved.roles = written.roles.map((role, index) => {
      const tools = role.tools?.map((key, toolIndex) => {
        const parsed = parseToolKey(key);
        if (parsed === undefined) {
          context.report(
            [...path, 'roles', index, 'tools', toolIndex],
            'expected a tool key "server:tool" or "server:*"',
          );
          return key;
        }
        return formatToolKey(parsed.serverId, parsed.toolName);
      });
      return {
        ...(role.scopes !== undefined ? { scopes: [...role.scopes] } : {}),
        ...(role.claims !== undefined ? { claims: copyClaims(role.claims) } : {}),
        ...(role.projects !== undefined ? { projects: [...role.projects] } : {}),
        ...(role.servers !== undefined ? { servers: [...role.servers] } : {}),
        ...(tools !== undefined ? { tools } : {}),
        ...(role.admin !== undefined ? { admin: role.admin } : {}),
      };
    });
  }
  return resolved;
}

function copyClaims(claims: Record<string, RequiredClaimValue>): Record<string, RequiredClaimValue> {
  return mapRecord(claims, (_name, value) => (Array.isArray(value) ? [...value] : value));
}

export function resolveAudit(value: unknown, context: ParseContext): ResolvedConfig['audit'] {
  warnUnknownKeys(value, keysOf(auditSchema), ['audit'], context);
  const audit = context.validate(sectionSchemas.audit, value, ['audit']);
  if (audit === undefined) return undefined;
  const file = context.resolvePath(audit.file);
  // Usage statistics persist beside the audit log they are fed from (docs/console.md, "Usage statistics").
  return {
    file,
    usageFile: audit.usageFile !== undefined ? context.resolvePath(audit.usageFile) : `${file}.usage.json`,
  };
}
