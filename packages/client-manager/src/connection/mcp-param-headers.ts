import { isRecord } from '@search-mcp/shared';

/**
 * SEP-2243 (MCP 2026-07-28, Streamable HTTP): a tool's `inputSchema` may mark properties with `x-mcp-header: Name`;
 * a client then mirrors those arguments of each `tools/call` as `Mcp-Param-Name` headers (so gateways can route on
 * them without reading the body), and must leave out a tool whose marks break the rules. The 2.x SDK does both only
 * inside `Client.callTool`/`listTools`, which the manager does not use (it forwards with `request()`), so the rules
 * are applied here.
 */

/** One marked property: where it sits in the arguments, and its header's name. */
export interface HeaderDeclaration {
  path: readonly string[];
  headerName: string;
}

export type HeaderScan = { valid: true; declarations: HeaderDeclaration[] } | { valid: false; reason: string };

const mark = 'x-mcp-header';
/** RFC 9110 `token`: no spaces, control characters, delimiters or non-ASCII. */
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The types a marked property may have (`number` is excluded by the spec, as are objects, arrays and null). */
const primitiveTypes = new Set(['string', 'integer', 'boolean']);
/** Subschemas a mark must never sit under: only a chain of `properties` reaches a header. */
const unreachableKeywords = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
const keyedKeywords = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** The header declarations of a tool's input schema, or why the tool must be left out. */
export function scanHeaderDeclarations(inputSchema: unknown): HeaderScan {
  const declarations: HeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (!isRecord(node)) return undefined;
    const where = path.length === 0 ? 'the schema itself' : path.join('.');
    if (mark in node) {
      const name = node[mark];
      if (!reachable || path.length === 0)
        return `${where}: ${mark} is allowed only on a property reached through properties`;
      if (typeof name !== 'string' || name === '') return `${where}: ${mark} must be a non-empty string`;
      if (!token.test(name)) return `${where}: ${mark} '${name}' is not an HTTP token`;
      if (typeof node.type !== 'string' || !primitiveTypes.has(node.type)) {
        return `${where}: ${mark} is allowed only on a string, integer or boolean property (not ${String(node.type ?? 'untyped')})`;
      }
      const earlier = seen.get(name.toLowerCase());
      if (earlier !== undefined) return `${mark} '${name}' is declared twice (also as '${earlier}')`;
      seen.set(name.toLowerCase(), name);
      declarations.push({ path, headerName: name });
    }
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const problem = visit(child, [...path, key], reachable);
        if (problem !== undefined) return problem;
      }
    }
    for (const keyword of unreachableKeywords) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : keyedKeywords.has(keyword) && isRecord(sub)
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const problem = visit(branch, [...path, `<${keyword}>`], false);
        if (problem !== undefined) return problem;
      }
    }
    return undefined;
  };
  const reason = visit(inputSchema, [], true);
  return reason === undefined ? { valid: true, declarations } : { valid: false, reason };
}

/**
 * The `Mcp-Param-*` headers of one call. An argument that is absent or null sends no header, nor does one that is
 * not a primitive (the backend refuses the call then, as it would refuse a wrong type anyway).
 */
export function paramHeaders(declarations: readonly HeaderDeclaration[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, headerName } of declarations) {
    let value: unknown = args;
    for (const key of path) value = isRecord(value) ? value[key] : undefined;
    const text = headerText(value);
    if (text !== undefined) headers[`Mcp-Param-${headerName}`] = encodeHeaderValue(text);
  }
  return headers;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!Number.isInteger(value) || Number.isSafeInteger(value))
  ) {
    return String(value);
  }
  return undefined;
}

/** A value that is no plain visible-ASCII field value (or looks like an encoded one) travels as `=?base64?…?=`. */
function encodeHeaderValue(text: string): string {
  const plain =
    text !== '' &&
    text === text.trim() &&
    !(text.startsWith('=?base64?') && text.endsWith('?=')) &&
    /^[\t\x20-\x7e]*$/.test(text);
  return plain ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
