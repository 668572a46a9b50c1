/**
 * One server entry → a `ServerConfig`: dialects mapped, validated, stdio or remote decided, `${VAR}` expanded in
 * the fields that may hold them (a disabled server's not at all), relative `cwd` resolved.
 *
 * A broken entry never takes the file down: every problem of the entry is collected in its own context and becomes
 * the server's `configError`, and the server is kept with whatever could be read. An entry that runs Search MCP
 * itself is skipped with a warning.
 */
import type * as z from 'zod';
import { formatIssues } from '../errors/issue.js';
import { isRecord } from '../text/is-record.js';
import type { ConfigPath } from './config-path.js';
import { serverEntrySchema } from './config-schema.js';
import { isHttpUrl, mapRecord } from './config-values.js';
import { dialectServerKeys, normalizeServerEntry, type ServerSource } from './dialects.js';
import { containsVariableReference } from './env-expansion.js';
import type { Expansion, ParseContext } from './parse-context.js';
import type { RemoteOAuthSettings, RemoteServerConfig, ServerConfig, StdioServerConfig } from './resolved-config.js';
import { searchMcpInvocation, selfReferenceWarning } from './self-reference.js';
import { checkToolOverrides, resolveToolOverrides } from './tool-overrides.js';
import { warnUnknownKeys } from './unknown-keys.js';

type ServerEntry = z.output<typeof serverEntrySchema>;

const knownServerKeys = [...Object.keys(serverEntrySchema.shape), ...dialectServerKeys];

/** Other clients' keys that mean nothing here (approval lists, editor settings): ignored without a word. */
const foreignServerKeys = new Set(['autoApprove', 'alwaysAllow', 'watchPaths', 'dev', 'gallery', 'version', 'oauth']);

/** Other clients' keys that look like they do something here but do not. */
const foreignServerKeyNotes: Readonly<Record<string, string>> = {
  timeout: 'not read by Search MCP (other clients count it in seconds)',
  envFile: 'not read by Search MCP: put the variables in "env"',
};

/** The server of `source` under `id`; undefined when the entry runs Search MCP itself (skipped, with a warning). */
export function resolveServer(source: ServerSource, id: string, parent: ParseContext): ServerConfig | undefined {
  const { path } = source;
  const context = parent.child();
  warnUnknownKeys(source.value, knownServerKeys, path, context, {
    ignored: foreignServerKeys,
    notes: foreignServerKeyNotes,
  });
  const normalized = checkToolOverrides(normalizeServerEntry(source.value, path, context), path, context);
  const entry = context.validateLeniently(serverEntrySchema, normalized, path);

  const written = isRecord(normalized) ? normalized : {};
  const hasCommand = Object.hasOwn(written, 'command');
  const hasUrl = Object.hasOwn(written, 'url');
  if (hasCommand && hasUrl) {
    context.report(path, 'has both "command" and "url": a server is either local ("command") or remote ("url")');
  } else if (hasCommand && entry.type !== undefined && entry.type !== 'stdio') {
    context.report([...path, 'type'], 'a remote type needs "url"; with "command" use "stdio" or leave "type" out');
  } else if (hasUrl && entry.type === 'stdio') {
    context.report([...path, 'type'], '"stdio" needs "command"; with "url" use "http", "sse" or leave "type" out');
  } else if (!hasCommand && !hasUrl && isRecord(normalized)) {
    context.report(path, 'needs "command" (a local stdio server) or "url" (a remote server)');
  }

  if (entry.identity === 'per-user') {
    // An account per caller comes from each caller's own OAuth login (docs/oauth-in-front.md).
    if (!hasUrl || hasCommand) {
      context.report(
        [...path, 'identity'],
        '"per-user" needs a remote server ("url") that callers authorize with OAuth',
      );
    } else if (entry.oauth === false) {
      context.report([...path, 'identity'], '"per-user" needs OAuth: each caller authorizes with their own account');
    } else if (entry.oauth === undefined && Object.keys(entry.headers ?? {}).some(isAuthorizationHeader)) {
      // The entry's own credential would be sent for every caller (and stop the OAuth login): one account for all.
      context.report(
        [...path, 'identity'],
        '"per-user" needs OAuth: each caller authorizes with their own account (remove the Authorization header or add an "oauth" key)',
      );
    }
  }
  const server =
    hasUrl && !hasCommand
      ? resolveRemoteServer(entry, source, id, context)
      : resolveStdioServer(entry, source, id, context);

  if (server.transport === 'stdio') {
    const invocation = searchMcpInvocation(server.command, server.args);
    if (invocation !== undefined) {
      parent.warn(path, selfReferenceWarning(invocation));
      return undefined;
    }
  }
  if (context.issues.length > 0) server.configError = formatIssues(context.issues);
  return server;
}

function isAuthorizationHeader(name: string): boolean {
  return name.toLowerCase() === 'authorization';
}

function resolveServerBase(entry: ServerEntry, key: string, id: string) {
  const tools = resolveToolOverrides(entry.tools);
  return {
    id,
    name: key,
    enabled: entry.enabled,
    toolPermissions: mapRecord(entry.toolPermissions, (_tool, allowed) => allowed),
    ...(tools !== undefined ? { tools } : {}),
    ...(entry.projects !== undefined ? { projects: [...entry.projects] } : {}),
    timeoutMs: entry.timeoutMs,
    startupTimeoutMs: entry.startupTimeoutMs,
    ...(entry.protocol !== undefined && entry.protocol !== 'auto' ? { protocol: entry.protocol } : {}),
    ...(entry.description !== undefined ? { description: entry.description } : {}),
    ...(entry.category !== undefined ? { category: entry.category } : {}),
    tags: [...entry.tags],
  };
}

/**
 * Expands a disabled server's fields not at all: its variables may be unset on purpose, and a disabled server
 * must not block start-up.
 */
function serverExpander(entry: ServerEntry, path: ConfigPath, context: ParseContext) {
  return (text: string, subpath: ConfigPath): Expansion =>
    entry.enabled ? context.expand(text, [...path, ...subpath]) : { value: text, complete: false };
}

function resolveStdioServer(
  entry: ServerEntry,
  source: ServerSource,
  id: string,
  context: ParseContext,
): StdioServerConfig {
  const expand = serverExpander(entry, source.path, context);
  const server: StdioServerConfig = {
    ...resolveServerBase(entry, source.key, id),
    transport: 'stdio',
    command: entry.command === undefined ? '' : expand(entry.command, ['command']).value,
    args: entry.args.map((argument, index) => expand(argument, ['args', index]).value),
    env: mapRecord(entry.env, (variable, text) => expand(text, ['env', variable]).value),
  };
  if (entry.sandbox !== undefined) {
    const { kind, network, paths = [], image } = entry.sandbox;
    server.sandbox = {
      kind,
      network: network ?? false,
      // Relative paths are the config file's, as `cwd` is; `~` is the user's home when the sandbox starts.
      paths: paths.map((entryPath) => {
        const { path, writable } = typeof entryPath === 'string' ? { path: entryPath, writable: false } : entryPath;
        return { path: path.startsWith('~') ? path : context.resolvePath(path), writable: writable ?? false };
      }),
      ...(image !== undefined ? { image } : {}),
    };
    if (kind === 'docker' && image === undefined) {
      context.report([...source.path, 'sandbox', 'image'], 'a "docker" sandbox needs "image": the image to run in');
    }
  }
  if (entry.cwd !== undefined) {
    const cwd = expand(entry.cwd, ['cwd']);
    // A disabled server's cwd stays as written while it still holds variables.
    server.cwd = cwd.complete || !containsVariableReference(entry.cwd) ? context.resolvePath(cwd.value) : cwd.value;
  }
  return server;
}

function resolveRemoteServer(
  entry: ServerEntry,
  source: ServerSource,
  id: string,
  context: ParseContext,
): RemoteServerConfig {
  const expand = serverExpander(entry, source.path, context);
  if (entry.sandbox !== undefined) {
    context.report([...source.path, 'sandbox'], 'a sandbox applies to local servers ("command"), not to a "url"');
  }
  let url = '';
  if (entry.url !== undefined) {
    const expanded = expand(entry.url, ['url']);
    url = expanded.value;
    // A disabled server's URL is still checked when it holds no variables: that much is known to be wrong.
    if ((expanded.complete || !containsVariableReference(entry.url)) && !isHttpUrl(url)) {
      context.report([...source.path, 'url'], 'expected an http or https URL');
    }
  }
  return {
    ...resolveServerBase(entry, source.key, id),
    transport: entry.type === undefined ? 'auto' : entry.type === 'sse' ? 'sse' : 'http',
    url,
    headers: mapRecord(entry.headers, (header, text) => expand(text, ['headers', header]).value),
    ...(entry.identity === 'per-user' ? { identity: 'per-user' as const } : {}),
    ...(entry.oauth !== undefined
      ? {
          oauth: resolveOAuth(entry.oauth, expand, (key, message) =>
            context.report([...source.path, 'oauth', key], message),
          ),
        }
      : {}),
  };
}

function resolveOAuth(
  written: NonNullable<ServerEntry['oauth']>,
  expand: ReturnType<typeof serverExpander>,
  report: (key: string, message: string) => void,
): RemoteOAuthSettings | false {
  if (written === false) return false;
  const settings: RemoteOAuthSettings = {};
  if (written.clientId !== undefined) settings.clientId = expand(written.clientId, ['oauth', 'clientId']).value;
  if (written.clientSecret !== undefined) {
    settings.clientSecret = expand(written.clientSecret, ['oauth', 'clientSecret']).value;
  }
  if (written.clientMetadataUrl !== undefined) {
    settings.clientMetadataUrl = expand(written.clientMetadataUrl, ['oauth', 'clientMetadataUrl']).value;
  }
  if (written.scopes !== undefined) {
    const scopes = typeof written.scopes === 'string' ? written.scopes.split(/\s+/) : written.scopes;
    settings.scopes = scopes.filter((scope) => scope !== '');
  }
  if (written.redirectPort !== undefined) settings.redirectPort = written.redirectPort;
  if (written.grant !== undefined) settings.grant = written.grant;
  if (written.privateKey !== undefined) settings.privateKey = expand(written.privateKey, ['oauth', 'privateKey']).value;
  if (written.signingAlgorithm !== undefined) settings.signingAlgorithm = written.signingAlgorithm;
  if (written.assertion !== undefined) settings.assertion = expand(written.assertion, ['oauth', 'assertion']).value;
  if (written.dpop !== undefined) settings.dpop = written.dpop;
  const provider = written.identityProvider;
  if (provider !== undefined) {
    const at = (key: string) => ['oauth', 'identityProvider', key];
    settings.identityProvider = {
      clientId: expand(provider.clientId, at('clientId')).value,
      idToken: expand(provider.idToken, at('idToken')).value,
      ...(provider.issuer !== undefined ? { issuer: expand(provider.issuer, at('issuer')).value } : {}),
      ...(provider.tokenEndpoint !== undefined
        ? { tokenEndpoint: expand(provider.tokenEndpoint, at('tokenEndpoint')).value }
        : {}),
      ...(provider.clientSecret !== undefined
        ? { clientSecret: expand(provider.clientSecret, at('clientSecret')).value }
        : {}),
    };
  }
  // The grants without a person need what they present (docs/oauth.md, "Without a person").
  if (written.grant === 'client_credentials') {
    if (written.clientId === undefined) report('clientId', 'the client_credentials grant needs "clientId"');
    if (written.clientSecret === undefined && written.privateKey === undefined) {
      report('grant', 'the client_credentials grant needs "clientSecret" or "privateKey"');
    }
  }
  if (written.grant === 'enterprise-managed') {
    if (written.clientId === undefined) report('clientId', 'the enterprise-managed grant needs "clientId"');
    if (provider === undefined) report('identityProvider', 'the enterprise-managed grant needs "identityProvider"');
    else if (provider.issuer === undefined && provider.tokenEndpoint === undefined) {
      report('identityProvider', 'needs "issuer" or "tokenEndpoint"');
    }
  }
  if (written.grant === 'jwt-bearer') {
    if (written.clientId === undefined) report('clientId', 'the jwt-bearer grant needs "clientId"');
    if (written.assertion === undefined) {
      report('assertion', 'the jwt-bearer grant needs "assertion" (the workload identity JWT)');
    }
  }
  return settings;
}
