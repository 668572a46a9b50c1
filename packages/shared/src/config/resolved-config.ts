/** What `parseConfig` returns: validated, defaults filled, ids normalized, variables expanded. */
import type { ExposedNameStyle } from '../keys/exposed-name.js';
import type { ProjectOptimization, SearchStrategy } from '../types/search-types.js';

export type ServerTransportConfig = 'stdio' | 'http' | 'sse' | 'auto';

/**
 * `tools.<name>` of a server entry (keyed by the backend's own tool name): what Search MCP shows instead of what the
 * backend lists. `name` renames the tool everywhere (lists, search, keys `server:<name>`, calls; the backend still
 * gets its own name); `enabled: false` hides it as `toolPermissions` does; `annotations` replace hint by hint.
 */
export interface ToolOverride {
  name?: string;
  title?: string;
  description?: string;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  enabled?: boolean;
}

interface ServerConfigBase {
  /** The normalized server id (packages/shared/README.md, "Configuration"). */
  id: string;
  /** The `mcpServers` key as written. */
  name: string;
  enabled: boolean;
  /** `false` hides a tool from search and blocks its execution. */
  toolPermissions: Record<string, boolean>;
  /** Per-tool overrides, keyed by the backend's own tool name; absent when none are written. */
  tools?: Record<string, ToolOverride>;
  /** Absent: the server belongs to no project (docs/projects-and-tokens.md, "Visibility"). */
  projects?: string[];
  timeoutMs: number;
  startupTimeoutMs: number;
  /**
   * The MCP revision the server is reached in, when pinned by the config: `2025` (the 2025 handshake only) or
   * `2026-07-28`. Absent (`auto`): the 2025 handshake first, 2026-07-28 when the server refuses it (`-32022`).
   */
  protocol?: '2025' | '2026-07-28';
  description?: string;
  category?: string;
  tags: string[];
  /**
   * Set when this server's entry is wrong: an unset `${VAR}` without default, a field of the wrong type, both
   * `command` and `url`, a `type` that does not fit, an id another key already has. One line: every problem as
   * `json.path: what is wrong`, joined with `; `; never a config value. Such a server is kept so it can be shown as
   * `failed` with this reason, and is never started; the other servers are not affected. The fields beside it are
   * what could be read (defaults where a field was wrong).
   */
  configError?: string;
}

export interface StdioServerConfig extends ServerConfigBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute when the config was read from a file (resolved against its directory). */
  cwd?: string;
  /** Run in a sandbox (Linux): docs/trust.md, "Sandboxed servers". */
  sandbox?: SandboxConfig;
}

export interface RemoteServerConfig extends ServerConfigBase {
  /** `auto`: Streamable HTTP, falling back to SSE on 400/404/405. */
  transport: 'http' | 'sse' | 'auto';
  url: string;
  headers: Record<string, string>;
  /**
   * OAuth to this server (docs/oauth.md). Absent: OAuth starts by itself when the server answers 401 asking for it.
   * `false`: never (a 401 is a failure of the `headers`' credentials).
   */
  oauth?: RemoteOAuthSettings | false;
  /**
   * `per-user`: each caller of the HTTP app authorizes this server with their own account and gets a connection of
   * their own (docs/oauth-in-front.md, "Each caller's own account"). Absent: `shared`, one connection for everyone.
   */
  identity?: 'per-user';
}

/** `mcpServers.<id>.oauth` as resolved: variables expanded, `scopes` as a list. */
export interface RemoteOAuthSettings {
  /** A client registered with the authorization server beforehand (else a metadata document or registration). */
  clientId?: string;
  /** Its secret (a confidential client): sent as the authorization server supports (basic or post). */
  clientSecret?: string;
  /** An https URL of a client ID metadata document, used as the client id where the server supports that. */
  clientMetadataUrl?: string;
  /** Scopes to ask for; absent: those the server names in its challenge, else those it lists as supported. */
  scopes?: string[];
  /** Port of the loopback redirect (`http://127.0.0.1:<port>/callback`); absent: any free port. */
  redirectPort?: number;
  /**
   * How tokens are obtained; absent: `authorization_code` (a person logs in). `client_credentials` (the client's own
   * `clientId` with `clientSecret` or `privateKey`) and `jwt-bearer` (RFC 7523, an `assertion` from a workload
   * identity provider) need no person.
   */
  grant?: OAuthGrant;
  /**
   * A private key (PEM, or a JWK as JSON) the client signs a JWT with to authenticate at the token endpoint
   * (`private_key_jwt`, RFC 7523) instead of sending `clientSecret`.
   */
  privateKey?: string;
  /** The JWS algorithm of `privateKey` (e.g. `ES256`, `RS256`); absent: `RS256`. */
  signingAlgorithm?: string;
  /** The JWT a `jwt-bearer` grant presents (a workload identity token, usually `${VAR}` from the environment). */
  assertion?: string;
  /** Sender-constrained tokens (DPoP, RFC 9449): each request to the server carries a proof of the client's key. */
  dpop?: boolean;
  /** The enterprise identity provider of the `enterprise-managed` grant. */
  identityProvider?: EnterpriseIdentityProvider;
}

export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt-bearer' | 'enterprise-managed';

/**
 * Enterprise-managed authorization (docs/oauth.md): the identity provider exchanges the person's ID token for an
 * identity assertion authorization grant (ID-JAG, RFC 8693 token exchange) for the MCP server's authorization server.
 */
export interface EnterpriseIdentityProvider {
  /** Its issuer URL (its token endpoint is discovered); or `tokenEndpoint` directly. */
  issuer?: string;
  tokenEndpoint?: string;
  /** Search MCP's client at the identity provider. */
  clientId: string;
  clientSecret?: string;
  /** The ID token the identity provider issued (usually `${VAR}`). */
  idToken: string;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** A path a sandboxed server sees (absolute), read-only unless `writable`. */
export interface SandboxPath {
  path: string;
  writable: boolean;
}

/** `mcpServers.<id>.sandbox` of a stdio server, resolved (docs/trust.md, "Sandboxed servers"). */
export interface SandboxConfig {
  kind: 'bubblewrap' | 'docker';
  network: boolean;
  paths: SandboxPath[];
  image?: string;
}

/** A token bucket (docs/trust.md, "Rate limits"). */
export interface RateConfig {
  requestsPerMinute: number;
  /** At most this many at once; the same as `requestsPerMinute` unless set. */
  burst: number;
}

export interface RateLimitsConfig {
  perToken?: RateConfig;
  perProject?: RateConfig;
  perTool?: RateConfig;
  /** By tool key (`server:tool`) or whole server (`server:*`). */
  tools: Record<string, RateConfig>;
}

/** `security` (docs/trust.md). */
export interface SecurityConfig {
  quarantineNewServers: boolean;
  onSuspicious: 'warn' | 'quarantine';
  rateLimits?: RateLimitsConfig;
}

/** `cluster` (docs/scale-out.md): where `search-mcp-http` replicas keep the state they share. */
export interface ClusterConfig {
  /** `url` with `${VAR}` expanded (its password is a secret: masked like the others). */
  redis: { url: string; keyPrefix?: string };
}

export interface CloudSearchConfig {
  url: string;
  apiKey?: string;
  timeoutMs: number;
}

/** `search.llm`: an OpenAI-compatible model re-ranks the best BM25 candidates. */
export interface LlmSearchConfig {
  /** Default `gpt-5-mini`. */
  model: string;
  /** An OpenAI-compatible endpoint; absent: the client library's default. */
  baseUrl?: string;
  /** Expanded like every secret; absent: the client library's own lookup (e.g. `OPENAI_API_KEY`). */
  apiKey?: string;
  /** Default 15000; after it, BM25 answers. */
  timeoutMs: number;
  /** BM25 candidates shown to the model, 1–100; default 20. */
  candidates: number;
}

/** `search.hybrid`: offline sentence embeddings fused with BM25. */
export interface HybridSearchConfig {
  /** Absolute when the config was read from a file; absent: the provider's default. */
  cacheDirectory?: string;
  /** Share of BM25 in the fused score, 0..1; absent: the provider's default. */
  bm25Weight?: number;
}

export interface SearchConfig {
  strategy: SearchStrategy;
  maxResults: number;
  cloud?: CloudSearchConfig;
  /** Present when `search.llm` is written or any strategy (global or per project) is `llm`; defaults filled. */
  llm?: LlmSearchConfig;
  /** Present when `search.hybrid` is written or any strategy (global or per project) is `hybrid`. */
  hybrid?: HybridSearchConfig;
}

export interface ProjectConfig {
  optimization: ProjectOptimization;
}

/** A claim's required value: equal to it, or (an array claim) containing it; a list: any of its values. */
export type RequiredClaimValue = string | number | boolean | Array<string | number | boolean>;

/** `auth.oauth` as resolved (docs/oauth-in-front.md): variables expanded, `audience` as a list. */
export interface OAuthResourceConfig {
  /** The authorization server's issuer identifier: tokens' `iss` must equal it. */
  issuer: string;
  /** What tokens' `aud` must name one of. Absent: this resource's own URL (`<public URL>/mcp`). */
  audience?: string[];
  /** Absent: from the issuer's metadata. */
  jwksUri?: string;
  /** Opaque tokens are checked here (RFC 7662); `url` absent: the issuer metadata's `introspection_endpoint`. */
  introspection?: { url?: string; clientId: string; clientSecret: string };
  /** Every token must carry these scopes. */
  requiredScopes?: string[];
  /** Every token must carry these claim values. */
  claims?: Record<string, RequiredClaimValue>;
  /** What the scopes and claims of a token allow. Absent: every valid token may use every project, server and tool. */
  roles?: OAuthRole[];
}

/** `auth.oauth.roles[]`: a token with all of `scopes` and `claims` gets the rest; absent limits: none. */
export interface OAuthRole {
  scopes?: string[];
  claims?: Record<string, RequiredClaimValue>;
  /** The projects it may act in; absent: any (as a token without `projects`). */
  projects?: string[];
  /** The server ids it may use; absent: every server. */
  servers?: string[];
  /** The tool keys (`server:tool`, or `server:*`) it may use; absent: every tool of its servers. */
  tools?: string[];
  /** The admin routes (`POST /v1/servers/:id/authorize` for a shared server). */
  admin?: boolean;
}

export interface ResolvedConfig {
  /** Keyed by normalized server id, in file order. A record without prototype (any id is an ordinary key). */
  mcpServers: Record<string, ServerConfig>;
  /**
   * `names`: how tools and prompts are listed (`prefixed` `server__name`, or `original` names with `server__name`
   * only for a name two servers share). `pinned` holds tool keys formatted as `server:tool`.
   */
  exposure: { mode: 'meta' | 'proxy'; names: ExposedNameStyle; pinned: string[] };
  search: SearchConfig;
  projects: Record<string, ProjectConfig>;
  auth: {
    tokens: Array<{ id: string; token: string; projects?: string[] }>;
    allowAnonymous: boolean;
    /** The HTTP app as an OAuth-protected resource (docs/oauth-in-front.md); absent: static tokens only. */
    oauth?: OAuthResourceConfig;
  };
  /**
   * The JSON-lines audit log, and the usage statistics fed from it (docs/console.md, "Usage statistics"):
   * `usageFile` defaults to `<file>.usage.json`.
   */
  audit?: { file: string; usageFile: string };
  /** Pinning and quarantine of tool definitions, description scanning, rate limits (docs/trust.md). */
  security: SecurityConfig;
  /** State shared by `search-mcp-http` replicas (docs/scale-out.md); absent: each process keeps its own. */
  cluster?: ClusterConfig;
  /**
   * What was accepted but deserves a look, each starting with its JSON path: unknown keys (with "did you mean"),
   * entries skipped (Search MCP itself, a key that cannot be an id), dialect conflicts. Servers with errors carry
   * `configError` instead.
   */
  warnings: string[];
}
