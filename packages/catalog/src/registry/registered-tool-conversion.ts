/**
 * Conversions at the edges of a `ToolRegistry` (packages/catalog/README.md, "ToolRegistry"): `parameters` → JSON
 * Schema, return values → MCP results.
 */
import type { Issue, JsonSchemaObject, ToolCallResult } from '@search-mcp/shared';
import type { ToolMetadata } from './tool-registry-types.js';

/** The tool's `inputSchema`: given, or built from `parameters`; problems are added to `issues`. */
export function toInputSchema(metadata: ToolMetadata, issues: Issue[]): JsonSchemaObject | undefined {
  if (metadata.inputSchema !== undefined) {
    if (
      typeof metadata.inputSchema !== 'object' ||
      metadata.inputSchema === null ||
      metadata.inputSchema.type !== 'object'
    ) {
      issues.push({ path: 'inputSchema', message: 'must be a JSON Schema with type "object"' });
      return undefined;
    }
    return metadata.inputSchema;
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  (metadata.parameters ?? []).forEach((parameter, index) => {
    if (!parameter || typeof parameter.name !== 'string' || parameter.name === '') {
      issues.push({ path: `parameters[${index}].name`, message: 'is required' });
      return;
    }
    if (parameter.name in properties)
      issues.push({ path: `parameters[${index}].name`, message: `"${parameter.name}" appears twice` });
    const { name, required: isRequired, ...schema } = parameter;
    properties[name] = Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
    if (isRequired) required.push(name);
  });
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** A `CallToolResult` as is; any other value as text (and `structuredContent` for a plain object). */
export function toCallToolResult(value: unknown): ToolCallResult {
  if (typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content)) {
    return value as ToolCallResult;
  }
  if (value === undefined) return { content: [] };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const result: ToolCallResult = { content: [{ type: 'text', text }] };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) result.structuredContent = value;
  return result;
}
