/**
 * What `search-mcp-http` needs to know to accept OAuth access tokens as a protected resource (docs/oauth-in-front.md; the MCP
 * authorization spec, server side), and what a check of one token yields. Types only.
 */
export interface OAuthResourceSettings {
  /** The authorization server's issuer identifier (exact string match with the token's `iss` / metadata `issuer`). */
  issuer: string;
  /** A token must name one of these in `aud` (RFC 8707: this resource's URL, e.g. https://search.example/mcp). */
  audiences: readonly string[];
  /** Default: `jwks_uri` from the issuer's metadata (RFC 8414 `/.well-known/oauth-authorization-server`, then OIDC `/.well-known/openid-configuration`; both path-insertion forms for an issuer with a path). */
  jwksUri?: string;
  /** Opaque (non-JWT) tokens are checked at the introspection endpoint (RFC 7662) when given; `url` default: the metadata's `introspection_endpoint`. Client auth: HTTP Basic. */
  introspection?: { url?: string; clientId: string; clientSecret: string };
  /** Every token must carry all of these scopes (else 403 insufficient_scope, naming them). */
  requiredScopes?: readonly string[];
  /** Required claim values: each claim must equal the value, or (array claim) contain it; an array value: any of them. */
  claims?: Readonly<Record<string, string | number | boolean | readonly (string | number | boolean)[]>>;
  /** Injected fetch (tests, proxies). Default global fetch. */
  fetch?: typeof fetch;
  /** Default 30 s of leeway on exp/nbf/iat. */
  clockToleranceSeconds?: number;
  /** Longer tokens are refused before any parsing. Default 8192 characters. */
  maxTokenLength?: number;
  /** Metadata, JWKS and introspection requests give up after this. Default 5000 ms. */
  requestTimeoutMs?: number;
}

export interface OAuthPrincipal {
  /** `sub` */ subject: string;
  /** `client_id` or `azp`, when present */ clientId?: string;
  /** from `scope` (space-separated) or `scp` (array) */ scopes: string[];
  /** the verified claims (JWT payload or introspection response) */ claims: Readonly<Record<string, unknown>>;
  /** epoch seconds */ expiresAt?: number;
}

export type OAuthTokenCheck =
  | { valid: true; principal: OAuthPrincipal }
  | {
      valid: false;
      /** 401 invalid_token (bad, expired, foreign, unverifiable), 403 insufficient_scope (scopes/claims missing) */
      status: 401 | 403;
      error: 'invalid_token' | 'insufficient_scope';
      /** Safe to send to the client (in WWW-Authenticate error_description and the JSON body): no token, no key material. */
      description: string;
      /** For the log line: the precise reason (e.g. "audience https://other/mcp is not this resource"). Never the token. */
      reason: string;
      /** For 403: the scopes to ask for (space-separated) */
      scope?: string;
    };

export type OAuthTokenRefusal = Extract<OAuthTokenCheck, { valid: false }>;
