/**
 * The config file (packages/shared/README.md, "Configuration"): the zod schema of what a user writes. Unknown keys
 * are accepted and dropped, so Claude Desktop / Cursor configs parse unchanged. What `parseConfig` returns is typed
 * in `resolved-config.ts`.
 *
 * Every message here and in `describeSchemaIssue` names types and allowed values only, never the value received:
 * a token put in the wrong field must not end up in a log.
 */
import * as z from 'zod';
import { EXPOSED_NAME_PATTERN } from '../keys/exposed-name.js';

export const configDefaults = {
  enabled: true,
  timeoutMs: 60_000,
  startupTimeoutMs: 30_000,
  exposureMode: 'meta',
  exposureNames: 'prefixed',
  searchStrategy: 'bm25',
  maxResults: 10,
  maxResultsLimit: 50,
  cloudTimeoutMs: 5_000,
  llmModel: 'gpt-5-mini',
  llmTimeoutMs: 15_000,
  llmCandidates: 20,
  llmCandidatesLimit: 100,
  allowAnonymous: false,
} as const;

/** `search.strategy` values: `off` turns catalog search off; `cloud`, `llm` and `hybrid` fall back to BM25. */
export const searchStrategyValues = ['bm25', 'hybrid', 'llm', 'cloud', 'off'] as const;

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

const exposedNameMessage = {
  error: 'expected a name of 1 to 64 letters, digits, "_" or "-" (what MCP clients accept as a tool name)',
};

/** `tools.<name>.annotations`: the hints MCP defines, each replacing the backend's own. */
export const toolAnnotationsOverrideSchema = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/**
 * `tools.<name>` of a server entry, keyed by the backend's own tool name: what Search MCP shows of that tool instead
 * of what the backend lists. Unknown keys are errors (see `tool-overrides.ts`), not the warnings of the rest of the
 * entry: no other client writes these, so an unknown one is a typo that would silently do nothing.
 */
export const toolOverrideSchema = z.object({
  name: z.string(exposedNameMessage).regex(EXPOSED_NAME_PATTERN, exposedNameMessage).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  annotations: toolAnnotationsOverrideSchema.optional(),
  enabled: z.boolean().optional(),
});

const portMessage = { error: 'expected a port number from 1 to 65535' };

/**
 * `oauth.grant`: how tokens are obtained (docs/oauth.md). `authorization_code` (default): a person logs in;
 * `client_credentials`, `jwt-bearer` (workload identity federation) and `enterprise-managed` (an ID-JAG from the
 * enterprise identity provider, presented as a JWT bearer grant): no person, no browser.
 */
export const oauthGrantValues = [
  'authorization_code',
  'client_credentials',
  'jwt-bearer',
  'enterprise-managed',
] as const;

/** `oauth.identityProvider`: the enterprise identity provider of the `enterprise-managed` grant. */
const identityProviderSchema = z.object({
  issuer: nonEmptyString.optional(),
  tokenEndpoint: nonEmptyString.optional(),
  clientId: nonEmptyString,
  clientSecret: nonEmptyString.optional(),
  idToken: nonEmptyString,
});

/** `mcpServers.<id>.oauth`: how Search MCP identifies itself to the server's authorization server (docs/oauth.md). */
export const serverOAuthSchema = z.union([
  z.literal(false),
  z.object({
    clientId: nonEmptyString.optional(),
    clientSecret: nonEmptyString.optional(),
    clientMetadataUrl: nonEmptyString.optional(),
    scopes: z.union([z.array(nonEmptyString), nonEmptyString]).optional(),
    redirectPort: z.number(portMessage).int(portMessage).min(1, portMessage).max(65535, portMessage).optional(),
    grant: z.enum(oauthGrantValues).optional(),
    privateKey: nonEmptyString.optional(),
    signingAlgorithm: nonEmptyString.optional(),
    assertion: nonEmptyString.optional(),
    dpop: z.boolean().optional(),
    identityProvider: identityProviderSchema.optional(),
  }),
]);

/** A path a sandboxed server may see: read-only unless `writable` (docs/trust.md, "Sandboxed servers"). */
export const sandboxPathSchema = z.union([
  nonEmptyString,
  z.object({ path: nonEmptyString, writable: z.boolean().optional() }),
]);

/** `mcpServers.<id>.sandbox`: run a stdio server in a sandbox (Linux): docs/trust.md, "Sandboxed servers". */
export const sandboxSchema = z.object({
  kind: z.enum(['bubblewrap', 'docker']),
  /** Whether the server may open network connections; default false. */
  network: z.boolean().optional(),
  /** What the server sees of the file system besides what it needs to run (its command, its libraries). */
  paths: z.array(sandboxPathSchema).optional(),
  /** `docker`: the image to run the command in. */
  image: nonEmptyString.optional(),
});

export const serverEntrySchema = z.object({
  type: z.enum(serverTypeValues).optional(),
  command: nonEmptyString.optional(),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: nonEmptyString.optional(),
  url: nonEmptyString.optional(),
  headers: stringMap.default({}),
  oauth: serverOAuthSchema.optional(),
  /**
   * `per-user`: each caller of the HTTP app authorizes the server with their own account and gets a connection of
   * their own (docs/oauth-in-front.md, "Each caller's own account"). Default `shared`: one connection for everyone.
   */
  identity: z.enum(['shared', 'per-user']).optional(),
  enabled: z.boolean().default(configDefaults.enabled),
  toolPermissions: z.record(z.string(), z.boolean()).default({}),
  tools: z.record(z.string(), toolOverrideSchema).optional(),
  projects: z.array(nonEmptyString).optional(),
  timeoutMs: positiveInteger.default(configDefaults.timeoutMs),
  startupTimeoutMs: positiveInteger.default(configDefaults.startupTimeoutMs),
  /** The MCP revision to reach the server in; `auto` (default): 2025 first, 2026-07-28 if it refuses that. */
  protocol: z.enum(['auto', '2025', '2026-07-28']).optional(),
  description: z.string().optional(),
  category: z.string().optional(),
  tags: z.array(z.string()).default([]),
  sandbox: sandboxSchema.optional(),
});

export const exposureSchema = z.object({
  mode: z.enum(['meta', 'proxy']).default(configDefaults.exposureMode),
  /** `prefixed`: `server__name`; `original`: the backend's own name, `server__name` only where two servers share it. */
  names: z.enum(['prefixed', 'original']).default(configDefaults.exposureNames),
  /** Tool keys; checked with `parseToolKey` by `parseConfig`. */
  pinned: z.array(z.string()).default([]),
});

export const cloudSearchSchema = z.object({
  url: nonEmptyString,
  apiKey: z.string().optional(),
  timeoutMs: positiveInteger.default(configDefaults.cloudTimeoutMs),
});

const candidatesMessage = { error: `expected an integer from 1 to ${configDefaults.llmCandidatesLimit}` };

/** `search.llm`: an OpenAI-compatible model re-ranks the best BM25 candidates. */
export const llmSearchSchema = z.object({
  model: nonEmptyString.default(configDefaults.llmModel),
  /** An OpenAI-compatible endpoint; absent: the provider's default. */
  baseUrl: nonEmptyString.optional(),
  apiKey: z.string().optional(),
  timeoutMs: positiveInteger.default(configDefaults.llmTimeoutMs),
  /** How many BM25 candidates the model sees. */
  candidates: z
    .number(candidatesMessage)
    .int(candidatesMessage)
    .min(1, candidatesMessage)
    .max(configDefaults.llmCandidatesLimit, candidatesMessage)
    .default(configDefaults.llmCandidates),
});

const weightMessage = { error: 'expected a number from 0 to 1' };

/** `search.hybrid`: offline sentence embeddings fused with BM25. */
export const hybridSearchSchema = z.object({
  /** Where computed vectors are kept between runs; relative to the config file. */
  cacheDirectory: nonEmptyString.optional(),
  /** Share of BM25 in the fused score, 0..1; absent: the provider's default. */
  bm25Weight: z.number(weightMessage).min(0, weightMessage).max(1, weightMessage).optional(),
});

export const searchSchema = z.object({
  strategy: z.enum(searchStrategyValues).default(configDefaults.searchStrategy),
  maxResults: maxResults.default(configDefaults.maxResults),
  cloud: cloudSearchSchema.optional(),
  llm: llmSearchSchema.optional(),
  hybrid: hybridSearchSchema.optional(),
});

export const projectSchema = z.object({
  /** Absent: the project uses `search.strategy`; null: search is off for the project. */
  optimization: z.literal(['bm25', 'hybrid', 'llm', 'cloud', null]).optional(),
});

export const authTokenSchema = z.object({
  id: nonEmptyString,
  token: nonEmptyString,
  projects: z.array(nonEmptyString).optional(),
});

const claimValue = z.union([z.string(), z.number(), z.boolean()]);
/** Required claim values: each claim equals the value (or, an array claim, contains it); a list: any of them. */
const claimsSchema = z.record(z.string(), z.union([claimValue, z.array(claimValue)]));

/**
 * `auth.oauth.roles[]` (docs/oauth-in-front.md, "Roles"): a token with all of `scopes` and all of `claims` gets what
 * the role allows; absent `projects`, `servers` or `tools`: no limit there. `admin`: the admin routes.
 */
export const oauthRoleSchema = z.object({
  scopes: z.array(nonEmptyString).optional(),
  claims: claimsSchema.optional(),
  projects: z.array(nonEmptyString).optional(),
  servers: z.array(nonEmptyString).optional(),
  tools: z.array(nonEmptyString).optional(),
  admin: z.boolean().optional(),
});

/** `auth.oauth`: the HTTP app as an OAuth-protected resource (docs/oauth-in-front.md). */
export const authOAuthSchema = z.object({
  issuer: nonEmptyString,
  audience: z.union([nonEmptyString, z.array(nonEmptyString)]).optional(),
  jwksUri: nonEmptyString.optional(),
  introspection: z
    .object({ url: nonEmptyString.optional(), clientId: nonEmptyString, clientSecret: nonEmptyString })
    .optional(),
  requiredScopes: z.array(nonEmptyString).optional(),
  claims: claimsSchema.optional(),
  roles: z.array(oauthRoleSchema).optional(),
});

export const authSchema = z.object({
  tokens: z.array(authTokenSchema).default([]),
  allowAnonymous: z.boolean().default(configDefaults.allowAnonymous),
  oauth: authOAuthSchema.optional(),
});

/** A token bucket: `requestsPerMinute` on average, at most `burst` (default: the same number) at once. */
export const rateSchema = z.object({
  requestsPerMinute: positiveInteger,
  burst: positiveInteger.optional(),
});

/** `security.rateLimits` (docs/trust.md, "Rate limits"): each applies on its own; a call takes a token of each. */
export const rateLimitsSchema = z.object({
  perToken: rateSchema.optional(),
  perProject: rateSchema.optional(),
  perTool: rateSchema.optional(),
  /** A rate of its own for a tool key (`server:tool`) or a whole server (`server:*`). */
  tools: z.record(z.string(), rateSchema).optional(),
});

/** `security` (docs/trust.md): pinning and quarantine of tool definitions, description scanning, rate limits. */
export const securitySchema = z.object({
  /** Hold a new server's tools until approved (`search-mcp approve <server>`). Default false. */
  quarantineNewServers: z.boolean().default(false),
  /** What a suspicious description does: `warn` (default: reported, the tool stays) or `quarantine`. */
  onSuspicious: z.enum(['warn', 'quarantine']).default('warn'),
  rateLimits: rateLimitsSchema.optional(),
});

export const auditSchema = z.object({
  file: nonEmptyString,
  usageFile: nonEmptyString.optional(),
});

/**
 * `cluster` (docs/scale-out.md): the state several `search-mcp-http` replicas share. `url` is `redis://` or
 * `rediss://` (Redis 7 or Valkey) and may use `${VAR}`; `keyPrefix` (default `search-mcp:`) separates deployments
 * that share one Redis.
 */
export const clusterSchema = z.object({
  redis: z.object({ url: nonEmptyString, keyPrefix: nonEmptyString.optional() }),
});

export const configFileSchema = z.object({
  mcpServers: z.record(z.string(), serverEntrySchema),
  exposure: exposureSchema.prefault({}),
  search: searchSchema.prefault({}),
  projects: z.record(z.string(), projectSchema).default({}),
  auth: authSchema.prefault({}),
  audit: auditSchema.optional(),
  security: securitySchema.prefault({}),
  cluster: clusterSchema.optional(),
});

/** What a config file may contain (before defaults, normalization and variable expansion). */
export type SearchMcpConfigInput = z.input<typeof configFileSchema>;
