/**
 * The recorded `tools/list` of 22 popular npm MCP servers (237 tools, `fixtures/real-servers/<server>.tools.json` at
 * the repository root; the README's "22 servers, 237 tools"). The search, embedding and ranking tests and the
 * benchmarks read the same files through this one loader. A missing folder throws, so a suite fails instead of
 * testing nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDefinition, ToolInfo } from '@search-mcp/shared';

/** `fixtures/real-servers` of the repository (absolute path). */
export const realServerFixturesDirectory = fileURLToPath(
  new URL('../../../../fixtures/real-servers/', import.meta.url),
);

const suffix = '.tools.json';

/** The recorded servers' names (the file names without `.tools.json`), sorted. */
export function realServerNames(): string[] {
  return readdirSync(realServerFixturesDirectory)
    .filter((file) => file.endsWith(suffix))
    .map((file) => file.slice(0, -suffix.length))
    .sort();
}

/** One server's tool definitions as it listed them (a `tools/list` result's `tools`, or the bare array). */
export function readRealServerDefinitions(server: string): ToolDefinition[] {
  const data: unknown = JSON.parse(readFileSync(join(realServerFixturesDirectory, `${server}${suffix}`), 'utf8'));
  return (Array.isArray(data) ? data : (data as { tools: unknown[] }).tools) as ToolDefinition[];
}

/**
 * Every recorded tool as the catalog hands tools to search providers (`server:tool` keys, an empty description where
 * the server gave none), servers in name order and each server's tools in its own order. Without `definition`: pass
 * `{ withDefinitions: true }` for the definition as listed too (what proxy mode and discovery answers read).
 */
export function loadRealServerTools(options: { withDefinitions?: boolean } = {}): ToolInfo[] {
  return realServerNames().flatMap((server) =>
    readRealServerDefinitions(server).map(
      (definition): ToolInfo => ({
        toolKey: `${server}:${definition.name}`,
        toolName: definition.name,
        serverName: server,
        description: definition.description ?? '',
        inputSchema: definition.inputSchema ?? { type: 'object' },
        ...(options.withDefinitions ? { definition } : {}),
      }),
    ),
  );
}
