/**
 * The config file (CONTRACT §2): the zod schema of what a user writes, and the types of what `parseConfig`
 * returns. Unknown keys are accepted and dropped, so Claude Desktop / Cursor configs parse unchanged.
 *
 * Every message here and in `describeSchemaIssue` names types and allowed values only, never the value received:
 * a token put in the wrong field must not end up in a log.
 */
import * as z from 'zod';

export const configDefaults = {
  enabled: true,
  timeoutMs: 60_000,
  startupTimeoutMs: 30_000,
  exposureMode: 'meta',
  searchStrategy: 'bm25',
  maxResults: 10,
  maxResultsLimit: 50,
  cloudTimeoutMs: 5_000,
  allowAnonymous: false,
} as const;

/** `type` values of a server entry; the `streamable…` spellings are aliases of `http` used by other clients. */
export const serverTypeValues = [
  'stdio',
  'http',
  'sse',
  'streamable-http',
  'streamableHttp',
  'streamable_http',
] as const;

const positiveIntegerMessage = { error: 'expected a positive integer' };
const positiveInteger = z.number(positiveIntegerMessage).int(positiveIntegerMessage).positive(positiveIntegerMessage);

const maxResultsMessage = { error: `expected an integer from 1 to ${configDefaults.maxResultsLimit}` };
const maxResults = z
  .number(maxResultsMessage)
  .int(maxResultsMessage)
  .min(1, maxResultsMessage)
  .max(configDefaults.maxResultsLimit, maxResultsMessage);

const nonEmptyString = z.string().min(1);
const stringMap = z.record(z.string(), z.string());

export const serverEntrySchema = z.object({
  type: z.enum(serverTypeValues).optional(),
  command: nonEmptyString.optional(),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: nonEmptyString.optional(),
  url: nonEmptyString.optional(),
  headers: stringMap.default({}),
  enabled: z.boolean().default(configDefaults.enabled),
  toolPermissions: z.record(z.string(), z.boolean()).default({}),
  projects: z.array(nonEmptyString).optional(),
  timeoutMs: positiveInteger.default(configDefaults.timeoutMs),
  startupTimeoutMs: positiveInteger.default(configDefaults.startupTimeoutMs),
  description: z.string().optional(),
  category: z.string().optional(),
  tags: z.array(z.string()).default([]),
});

export const exposureSchema = z.object({
  mode: z.enum(['meta', 'proxy']).default(configDefaults.exposureMode),
  /** Tool keys; checked with `parseToolKey` by `parseConfig`. */
  pinned: z.array(z.string()).default([]),
});

export const cloudSearchSchema = z.object({
  url: nonEmptyString,
  apiKey: z.string().optional(),
  timeoutMs: positiveInteger.default(configDefaults.cloudTimeoutMs),
});

export const searchSchema = z.object({
  strategy: z.enum(['bm25', 'cloud', 'off']).default(configDefaults.searchStrategy),
  maxResults: maxResults.default(configDefaults.maxResults),
  cloud: cloudSearchSchema.optional(),
});

export const projectSchema = z.object({
  /** Absent: the project uses `search.strategy`. */
  optimization: z.literal(['bm25', 'cloud', null]).optional(),
});

export const authTokenSchema = z.object({
  id: nonEmptyString,
  token: nonEmptyString,
  projects: z.array(nonEmptyString).optional(),
});

export const authSchema = z.object({
  tokens: z.array(authTokenSchema).default([]),
  allowAnonymous: z.boolean().default(configDefaults.allowAnonymous),
});

export const auditSchema = z.object({
  file: nonEmptyString,
});

export const configFileSchema = z.object({
  mcpServers: z.record(z.string(), serverEntrySchema),
  exposure: exposureSchema.prefault({}),
  search: searchSchema.prefault({}),
  projects: z.record(z.string(), projectSchema).default({}),
  auth: authSchema.prefault({}),
  audit: auditSchema.optional(),
});

/** What a config file may contain (before defaults, normalization and variable expansion). */
export type SearchMcpConfigInput = z.input<typeof configFileSchema>;

export type ServerTransportConfig = 'stdio' | 'http' | 'sse' | 'auto';

interface ServerConfigBase {
  /** The normalized server id (CONTRACT §2). */
  id: string;
  /** The `mcpServers` key as written. */
  name: string;
  enabled: boolean;
  /** `false` hides a tool from search and blocks its execution. */
  toolPermissions: Record<string, boolean>;
  /** Absent: the server belongs to no project (CONTRACT §5). */
  projects?: string[];
  timeoutMs: number;
  startupTimeoutMs: number;
  description?: string;
  category?: string;
  tags: string[];
}

export interface StdioServerConfig extends ServerConfigBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute when the config was read from a file (resolved against its directory). */
  cwd?: string;
}

export interface RemoteServerConfig extends ServerConfigBase {
  /** `auto`: Streamable HTTP, falling back to SSE on 400/404/405. */
  transport: 'http' | 'sse' | 'auto';
  url: string;
  headers: Record<string, string>;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export interface CloudSearchConfig {
  url: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface ResolvedConfig {
  /** Keyed by normalized server id, in file order. */
  mcpServers: Record<string, ServerConfig>;
  /** `pinned` holds tool keys formatted as `server:tool`. */
  exposure: { mode: 'meta' | 'proxy'; pinned: string[] };
  search: { strategy: 'bm25' | 'cloud' | 'off'; maxResults: number; cloud?: CloudSearchConfig };
  projects: Record<string, { optimization: 'bm25' | 'cloud' | null }>;
  auth: { tokens: Array<{ id: string; token: string; projects?: string[] }>; allowAnonymous: boolean };
  audit?: { file: string };
}

/** A message for a zod issue that names what was expected, never the value received. */
export function describeSchemaIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `expected ${describeExpectedType(issue.expected)}, got ${describeValueType(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `expected ${formatAllowedValue(issue.values[0])}`
        : `expected one of ${issue.values.map(formatAllowedValue).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'expected a non-empty string';
      return describeBound(issue.origin, issue.minimum, issue.inclusive ?? true, 'at least', 'more than');
    case 'too_big':
      return describeBound(issue.origin, issue.maximum, issue.inclusive ?? true, 'at most', 'less than');
    case 'invalid_format':
      return `expected ${issue.format} format`;
    case 'not_multiple_of':
      return `expected a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    case 'invalid_key':
      return 'invalid key';
    default:
      return 'invalid value';
  }
}

function describeExpectedType(expected: string): string {
  return expected === 'int' ? 'an integer' : expected;
}

function describeValueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function formatAllowedValue(value: unknown): string {
  return typeof value === 'bigint' ? `${value}n` : String(JSON.stringify(value));
}

function describeBound(
  origin: string,
  limit: number | bigint,
  inclusive: boolean,
  inclusiveWord: string,
  exclusiveWord: string,
): string {
  const bound = `${inclusive ? inclusiveWord : exclusiveWord} ${String(limit)}`;
  if (origin === 'string') return `expected ${bound} characters`;
  if (origin === 'array' || origin === 'set') return `expected ${bound} items`;
  return `expected a number ${bound}`;
}
