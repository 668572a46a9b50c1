/** The sections beside `mcpServers`: exposure, search, projects, auth and audit. */
import { formatToolKey, parseToolKey } from '../keys/tool-key.js';
import { configFileSchema } from './config-schema.js';
import { isHttpUrl, mapRecord } from './config-values.js';
import type { ParseContext } from './parse-context.js';
import type { CloudSearchConfig, ResolvedConfig } from './resolved-config.js';

type SearchSection = ResolvedConfig['search'];
const sectionSchemas = configFileSchema.shape;

export function resolveExposure(value: unknown, context: ParseContext): ResolvedConfig['exposure'] | undefined {
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

export function resolveSearch(value: unknown, context: ParseContext): SearchSection | undefined {
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

export function resolveProjects(
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

export function resolveAuth(value: unknown, context: ParseContext): ResolvedConfig['auth'] | undefined {
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
  const audit = context.validate(sectionSchemas.audit, value, ['audit']);
  return audit === undefined ? undefined : { file: context.resolvePath(audit.file) };
}
