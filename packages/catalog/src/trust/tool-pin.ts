/**
 * A tool definition as it is pinned (docs/trust.md, "Pinning and quarantine"): the fields that reach the model or
 * decide what a call does (name, title, description, inputSchema, outputSchema, annotations), hashed with SHA-256 over
 * their canonical JSON (object keys sorted), so the same definition always has the same hash whatever order a server
 * sends its keys in.
 */
import { createHash } from 'node:crypto';
import type { ToolInfo } from '@search-mcp/shared';

/** The pinned fields of one tool. Absent fields are left out (not `null`), so adding one is a change. */
export interface PinnedDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export const pinnedFields = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
export type PinnedField = (typeof pinnedFields)[number];

/** The pinned fields of a listed tool, under the backend's own name (before any config override renames it). */
export function pinnedDefinition(tool: ToolInfo): PinnedDefinition {
  const definition: PinnedDefinition = { name: tool.originalName ?? tool.toolName };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== '') definition.description = tool.description;
  definition.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  return definition;
}

/** JSON with every object's keys sorted, no spaces: one text per value. */
export function canonicalJson(value: unknown): string {
  // The native serializer with keys put in order on the way: much faster than building the text by hand.
  return JSON.stringify(value, sortKeys) ?? 'null';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  let sorted = true;
  for (let index = 1; index < keys.length; index += 1) {
    if ((keys[index - 1] as string) > (keys[index] as string)) {
      sorted = false;
      break;
    }
  }
  // An own `__proto__` key (JSON.parse makes one) is kept: on a plain `{}` the assignment would set the prototype
  // instead, so two definitions differing only under `__proto__` would hash the same. A null-prototype copy with
  // defined properties keeps every key as data.
  if (sorted) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of keys.sort()) {
    Object.defineProperty(copy, key, {
      value: (value as Record<string, unknown>)[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** `sha256:<hex>` of the definition's canonical JSON. */
export function definitionHash(definition: PinnedDefinition): string {
  return `sha256:${createHash('sha256').update(canonicalJson(definition)).digest('hex')}`;
}

/** The fields whose canonical JSON differs between two definitions, in `pinnedFields` order. */
export function changedFields(before: PinnedDefinition, after: PinnedDefinition): PinnedField[] {
  return pinnedFields.filter((field) => canonicalJson(before[field]) !== canonicalJson(after[field]));
}
