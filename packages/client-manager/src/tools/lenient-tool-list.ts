import type { JsonSchemaObject, ServerConfig, ToolDefinition, ToolInfo } from '@search-mcp/shared';
import { formatToolKey } from '@search-mcp/shared';

export interface ToolListProblem {
  /** Index of the tool in its page, and its name when it had one. */
  index: number;
  name?: string;
  reason: string;
}

export interface LenientToolPage {
  tools: ToolDefinition[];
  problems: ToolListProblem[];
}

/**
 * Validates one `tools/list` page tool by tool. The SDK's `listTools()` rejects the whole answer when one tool
 * is malformed; a catalog of 20 servers must not lose a server over one bad definition, so a bad tool is dropped
 * and reported, and optional fields that are malformed are removed rather than failing the tool.
 */
export function parseToolPage(rawTools: unknown): LenientToolPage {
  const tools: ToolDefinition[] = [];
  const problems: ToolListProblem[] = [];
  if (!Array.isArray(rawTools)) {
    problems.push({ index: -1, reason: '`tools` is not an array' });
    return { tools, problems };
  }
  rawTools.forEach((raw: unknown, index) => {
    if (!isPlainObject(raw)) {
      problems.push({ index, reason: 'not an object' });
      return;
    }
    const name = raw.name;
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push({ index, reason: '`name` is missing or not a string' });
      return;
    }
    const inputSchema = raw.inputSchema;
    if (!isPlainObject(inputSchema)) {
      problems.push({ index, name, reason: '`inputSchema` is missing or not an object' });
      return;
    }
    if (inputSchema.type !== undefined && inputSchema.type !== 'object') {
      problems.push({ index, name, reason: '`inputSchema.type` is not "object"' });
      return;
    }
    const definition: ToolDefinition = {
      ...raw,
      name,
      inputSchema: { ...inputSchema, type: 'object' } as JsonSchemaObject,
    };
    for (const field of ['title', 'description'] as const) {
      if (definition[field] !== undefined && typeof definition[field] !== 'string') {
        problems.push({ index, name, reason: `\`${field}\` is not a string; ignored` });
        delete definition[field];
      }
    }
    if (definition.outputSchema !== undefined) {
      const outputSchema: unknown = definition.outputSchema;
      if (!isPlainObject(outputSchema) || (outputSchema.type !== undefined && outputSchema.type !== 'object')) {
        problems.push({ index, name, reason: '`outputSchema` is not an object schema; ignored' });
        delete definition.outputSchema;
      }
    }
    if (definition.annotations !== undefined && !isPlainObject(definition.annotations)) {
      problems.push({ index, name, reason: '`annotations` is not an object; ignored' });
      delete definition.annotations;
    }
    tools.push(definition);
  });
  return { tools, problems };
}

/** Drops later tools that repeat an earlier tool's name (the first one wins, as a client would route to it). */
export function dropDuplicateTools(tools: ToolDefinition[]): { tools: ToolDefinition[]; duplicates: string[] } {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const unique = tools.filter((tool) => {
    if (seen.has(tool.name)) {
      duplicates.push(tool.name);
      return false;
    }
    seen.add(tool.name);
    return true;
  });
  return { tools: unique, duplicates };
}

type ServerMetadata = Pick<ServerConfig, 'description' | 'projects' | 'category' | 'tags'>;

/** The catalog's view of a backend tool, with the server's metadata from the config for search and visibility. */
export function toToolInfo(
  serverId: string,
  definition: ToolDefinition,
  server: ServerMetadata = {} as ServerMetadata,
): ToolInfo {
  const info: ToolInfo = {
    toolKey: formatToolKey(serverId, definition.name),
    toolName: definition.name,
    serverName: serverId,
    description: definition.description ?? '',
    inputSchema: definition.inputSchema,
    definition,
  };
  const title = definition.title ?? definition.annotations?.title;
  if (typeof title === 'string') info.title = title;
  if (definition.outputSchema) info.outputSchema = definition.outputSchema;
  if (definition.annotations) info.annotations = definition.annotations;
  if (server.description !== undefined) info.serverDescription = server.description;
  if (server.projects !== undefined) info.serverProjects = server.projects;
  if (server.category !== undefined) info.category = server.category;
  if (server.tags !== undefined && server.tags.length > 0) info.tags = server.tags;
  return info;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
