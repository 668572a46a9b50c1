import { isRecord, type ToolInfo } from '@search-mcp/shared';

/** How deep parameter schemas are hashed: as deep as `tool-search-fields.ts` indexes them. */
const MAX_SCHEMA_DEPTH = 2;

/**
 * A tool's content hash: two 32-bit hashes over every text the index is built from (key, name, title, description,
 * server id and description, category, tags, parameter names, titles, descriptions and enum values), in order. A
 * same-length edit of a description changes it, so the ranker's index cache (`tool-index-cache.ts`) never serves a
 * stale index for a new object with other text.
 */
export interface ToolDigest {
  readonly first: number;
  readonly second: number;
}

export function toolDigest(value: unknown): ToolDigest {
  const hash = new TextHash();
  const tool = (isRecord(value) ? value : {}) as Partial<ToolInfo>;
  hash.text(tool.toolKey);
  hash.text(tool.toolName);
  hash.text(tool.title);
  hash.text(tool.annotations?.title);
  hash.text(tool.description);
  hash.text(tool.serverName);
  hash.text(tool.serverDescription);
  hash.text(tool.category);
  if (Array.isArray(tool.tags)) for (const tag of tool.tags) hash.text(tag);
  hash.number(-2);
  hashSchemaText(hash, tool.inputSchema, 0);
  return { first: hash.first, second: hash.second };
}

/** The schema texts `tool-search-fields.ts` indexes, walked the same way. */
function hashSchemaText(hash: TextHash, schema: unknown, depth: number): void {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return;
  const properties = schema['properties'];
  if (!isRecord(properties)) return;
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    hash.text(name);
    const property = properties[name];
    if (!isRecord(property)) continue;
    hash.text(property['title']);
    hash.text(property['description']);
    const values = property['enum'];
    if (Array.isArray(values)) for (const value of values) hash.text(value);
    hashSchemaText(hash, property, depth + 1);
    const items = property['items'];
    if (isRecord(items)) {
      hash.text(items['description']);
      hashSchemaText(hash, items, depth + 1);
    }
    // Closes this property, so nesting cannot be confused with siblings.
    hash.number(-3);
  }
}

/** FNV-1a (32 bits) and a second multiplicative hash with another prime, fed the same input: 64 bits in all. */
class TextHash {
  first = 0x811c9dc5;
  second = 0x1b873593;

  /** A string (its length first, so "ab" + "c" differs from "a" + "bc"); anything else counts as absent. */
  text(value: unknown): void {
    if (typeof value !== 'string') {
      this.number(-1);
      return;
    }
    this.number(value.length);
    let first = this.first;
    let second = this.second;
    for (let index = 0; index < value.length; index += 1) {
      const code = value.charCodeAt(index);
      first = Math.imul(first ^ code, 0x01000193);
      second = Math.imul(second ^ code, 0x5bd1e995);
    }
    this.first = first >>> 0;
    this.second = second >>> 0;
  }

  number(value: number): void {
    this.first = Math.imul(this.first ^ (value >>> 0), 0x01000193) >>> 0;
    this.second = Math.imul(this.second ^ (value >>> 0), 0x5bd1e995) >>> 0;
  }
}
