import { isRecord, type ToolInfo } from '@search-mcp/shared';

/** How deep parameter schemas are compared: as deep as `tool-search-fields.ts` indexes them. */
const MAX_SCHEMA_DEPTH = 2;

const NO_VALUES: readonly unknown[] = [];

/**
 * Whether two tool objects hold the same text for the index: key, name, title, description, server id and
 * description, category, tags, and the parameter names, titles, descriptions and enum values down to the depth
 * `tool-search-fields.ts` indexes. The ranker's index cache (`tool-index-cache.ts`) asks it for a new object in the
 * place of one it indexed. A direct comparison rather than a hash of each side: a host that rebuilds its tool objects
 * copies the same strings into them, and `===` on the same string is one pointer comparison, where a hash reads every
 * character (at 50,000 tools, milliseconds against hundreds). It is exact: no two texts are ever taken as one.
 * Anything that is not a string counts as no text, as it does for the index.
 */
export function sameSearchText(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  const a = (isRecord(left) ? left : {}) as Partial<ToolInfo>;
  const b = (isRecord(right) ? right : {}) as Partial<ToolInfo>;
  return (
    sameText(a.toolKey, b.toolKey) &&
    sameText(a.toolName, b.toolName) &&
    sameText(a.title, b.title) &&
    sameText(a.annotations?.title, b.annotations?.title) &&
    sameText(a.description, b.description) &&
    sameText(a.serverName, b.serverName) &&
    sameText(a.serverDescription, b.serverDescription) &&
    sameText(a.category, b.category) &&
    sameTexts(a.tags, b.tags) &&
    sameSchemaText(a.inputSchema, b.inputSchema, 0)
  );
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function sameText(left: unknown, right: unknown): boolean {
  return textOf(left) === textOf(right);
}

/** Two lists of texts (anything but an array is an empty list). */
function sameTexts(left: unknown, right: unknown): boolean {
  const a = Array.isArray(left) ? left : NO_VALUES;
  const b = Array.isArray(right) ? right : NO_VALUES;
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) if (!sameText(a[at], b[at])) return false;
  return true;
}

/** The properties of a schema the index reads, or undefined when it reads none. */
function propertiesOf(schema: unknown, depth: number): Record<string, unknown> | undefined {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return undefined;
  const properties = schema['properties'];
  return isRecord(properties) ? properties : undefined;
}

/** The schema texts `tool-search-fields.ts` indexes, walked the same way on both sides. */
function sameSchemaText(left: unknown, right: unknown, depth: number): boolean {
  if (left === right) return true;
  const a = propertiesOf(left, depth);
  const b = propertiesOf(right, depth);
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const names = Object.keys(a);
  const otherNames = Object.keys(b);
  if (names.length !== otherNames.length) return false;
  for (let at = 0; at < names.length; at++) {
    const name = names[at] as string;
    if (name !== otherNames[at]) return false;
    const property = a[name];
    const other = b[name];
    if (property === other) continue;
    if (!isRecord(property) || !isRecord(other)) {
      if (isRecord(property) || isRecord(other)) return false;
      continue;
    }
    if (
      !sameText(property['title'], other['title']) ||
      !sameText(property['description'], other['description']) ||
      !sameTexts(property['enum'], other['enum']) ||
      !sameSchemaText(property, other, depth + 1)
    ) {
      return false;
    }
    const items = property['items'];
    const otherItems = other['items'];
    if (isRecord(items) !== isRecord(otherItems)) return false;
    if (isRecord(items) && isRecord(otherItems)) {
      if (!sameText(items['description'], otherItems['description'])) return false;
      if (!sameSchemaText(items, otherItems, depth + 1)) return false;
    }
  }
  return true;
}
