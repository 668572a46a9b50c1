import { isRecord } from '../text/is-record.js';

/**
 * SEP-2243 (MCP 2026-07-28, Streamable HTTP): a tool's `inputSchema` may mark properties with `x-mcp-header: Name`;
 * a client then mirrors those arguments of each `tools/call` as `Mcp-Param-Name` headers (so gateways can route on
 * them without reading the body), and must leave out a tool whose marks break the rules; a server checks the headers
 * against the body before the tool runs. Both sides of Search MCP use these rules: the client manager mirroring
 * arguments to a 2026 backend, and search-mcp-http checking what its own clients send.
 */

/** One marked property: where it sits in the arguments, its header's name, and its declared type. */
export interface HeaderDeclaration {
  path: readonly string[];
  headerName: string;
  type: 'string' | 'integer' | 'boolean';
}

export type HeaderScan = { valid: true; declarations: HeaderDeclaration[] } | { valid: false; reason: string };

/** Every mirrored argument's header name starts so (`Mcp-Param-Region`); header names are case-insensitive. */
export const MCP_PARAM_HEADER_PREFIX = 'Mcp-Param-';

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
      declarations.push({ path, headerName: name, type: node.type as HeaderDeclaration['type'] });
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
    const text = headerText(valueAt(args, path));
    if (text !== undefined) headers[`${MCP_PARAM_HEADER_PREFIX}${headerName}`] = encodeHeaderValue(text);
  }
  return headers;
}

/** Why a call's `Mcp-Param-*` headers disagree with its body: the header concerned, and what is wrong with it. */
export interface ParamHeaderMismatch {
  header: string;
  reason: string;
}

/**
 * Checks a call's `Mcp-Param-*` headers against its arguments, as a server must before the tool runs. For each
 * declaration whose argument has a value, the header must be there and decode to that value (an integer compares as
 * a number, so `42.0` matches 42); an argument that is absent or null expects no header (one sent anyway is ignored),
 * as does a value that is no primitive (the call's own argument check refuses it). `headerOf` reads a request
 * header by name (case-insensitively, without surrounding whitespace). Returns the first disagreement.
 */
export function checkParamHeaders(
  declarations: readonly HeaderDeclaration[],
  args: unknown,
  headerOf: (name: string) => string | null | undefined,
): ParamHeaderMismatch | undefined {
  for (const { path, headerName, type } of declarations) {
    const value = valueAt(args, path);
    if (value === undefined || value === null) continue;
    const expected = headerText(value);
    if (expected === undefined) continue;
    const header = `${MCP_PARAM_HEADER_PREFIX}${headerName}`;
    const where = `arguments.${path.join('.')}`;
    const raw = headerOf(header);
    if (raw === null || raw === undefined) {
      return {
        header,
        reason: `the body carries ${where}=${JSON.stringify(value)} but the ${header} header is absent`,
      };
    }
    const decoded = decodeHeaderValue(raw.replace(/^[\t ]+|[\t ]+$/g, ''));
    if (decoded === undefined) {
      return { header, reason: `the ${header} header is not valid Base64 of UTF-8 text inside =?base64?…?=` };
    }
    const same =
      type === 'integer' && typeof value === 'number' && /^-?\d+(\.\d+)?$/.test(decoded)
        ? Number(decoded) === value
        : decoded === expected;
    if (!same) {
      return {
        header,
        reason: `the ${header} header says ${JSON.stringify(decoded)} but the body carries ${where}=${JSON.stringify(value)}`,
      };
    }
  }
  return undefined;
}

/**
 * A header value as text: a `=?base64?…?=` value decoded (`undefined` when its payload is not canonical Base64 of
 * UTF-8 text, which a server must refuse), any other value as it is (a value missing either marker is literal).
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(encodedPrefix) && value.endsWith(encodedSuffix))) return value;
  const payload = value.slice(encodedPrefix.length, value.length - encodedSuffix.length);
  if (!canonicalBase64.test(payload)) return undefined;
  try {
    return strictUtf8.decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

const encodedPrefix = '=?base64?';
const encodedSuffix = '?=';
/** Standard alphabet, padded to whole quanta: `SGVsbG8` (no padding) and `SGVs!!!bG8=` are refused. */
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) value = isRecord(value) ? value[key] : undefined;
  return value;
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
    !(text.startsWith(encodedPrefix) && text.endsWith(encodedSuffix)) &&
    /^[\t\x20-\x7e]*$/.test(text);
  return plain ? text : `${encodedPrefix}${Buffer.from(text, 'utf8').toString('base64')}${encodedSuffix}`;
}
