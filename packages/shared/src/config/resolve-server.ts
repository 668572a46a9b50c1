/**
 * One `mcpServers` entry → a `ServerConfig`: validated, stdio or remote decided, `${VAR}` expanded in the fields
 * that may hold them (a disabled server's not at all), relative `cwd` resolved.
 */
import type * as z from 'zod';
import { serverEntrySchema } from './config-schema.js';
import type { ConfigPath } from './config-path.js';
import { isHttpUrl, mapRecord } from './config-values.js';
import { containsVariableReference } from './env-expansion.js';
import type { ParseContext } from './parse-context.js';
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from './resolved-config.js';

type ServerEntry = z.output<typeof serverEntrySchema>;

export function resolveServer(
  value: unknown,
  key: string,
  id: string,
  context: ParseContext,
): ServerConfig | undefined {
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
    toolPermissions: mapRecord(entry.toolPermissions, (_tool, allowed) => allowed),
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
