/**
 * The config file (CONTRACT §2): the zod schema of what a user writes. Unknown keys are accepted and dropped, so
 * Claude Desktop / Cursor configs parse unchanged. What `parseConfig` returns is typed in `resolved-config.ts`.
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
