import { fetchJson, isJsonObject } from './bounded-fetch.js';
import { type TokenRefusal, unverifiable } from './token-refusal.js';

/** The fields of the issuer's metadata (RFC 8414 §2) this resource uses. */
export interface AuthorizationServerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
}

/**
 * Where the issuer's metadata may be, in the order the MCP authorization spec has clients try them: RFC 8414 with the
 * well-known part inserted before the issuer's path, then OpenID Connect Discovery inserted the same way and appended
 * after the path. An issuer without a path has just the two root documents.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const at = (pathname: string) => new URL(pathname, url.origin).href;
  if (path === '') return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * The issuer's metadata, fetched once when first needed. Parallel first requests share one fetch; a success is kept
 * for the verifier's life, a failure is not (the next request tries again, so an authorization server that was down
 * at start-up is picked up once it is back).
 */
export class MetadataSource {
  private cached: AuthorizationServerMetadata | undefined;
  private pending: Promise<AuthorizationServerMetadata> | undefined;

  constructor(
    private readonly issuer: string,
    private readonly fetchImplementation: typeof fetch,
    private readonly timeoutMs: number,
  ) {}

  /** Throws a TokenRefusal (401, "cannot be verified now") when the metadata cannot be had. */
  get(): Promise<AuthorizationServerMetadata> {
    if (this.cached) return Promise.resolve(this.cached);
    if (!this.pending) {
      this.pending = this.discover().then(
        (metadata) => {
          this.cached = metadata;
          this.pending = undefined;
          return metadata;
        },
        (error: unknown) => {
          this.pending = undefined;
          throw error;
        },
      );
    }
    return this.pending;
  }

  private async discover(): Promise<AuthorizationServerMetadata> {
    const misses: string[] = [];
    for (const url of metadataUrls(this.issuer)) {
      const answer = await fetchJson(
        this.fetchImplementation,
        url,
        { headers: { accept: 'application/json' } },
        this.timeoutMs,
      );
      if (answer.kind === 'unreachable')
        throw unverifiable("the authorization server's metadata is unreachable", `metadata: ${answer.detail}`);
      // Not found here (or not this kind of document): the next well-known location may have it.
      if (answer.status !== 200) {
        misses.push(`${url} answered ${answer.status}`);
        continue;
      }
      if (answer.kind === 'not-json') throw malformed(answer.detail);
      return this.checked(url, answer.body);
    }
    throw unverifiable("the authorization server's metadata was not found", `metadata: ${misses.join('; ')}`);
  }

  private checked(url: string, body: unknown): AuthorizationServerMetadata {
    if (!isJsonObject(body)) throw malformed(`${url} answered JSON that is not an object`);
    // RFC 8414 §3.3: the issuer in the metadata must be the one it was fetched for, exactly.
    if (body.issuer !== this.issuer)
      throw malformed(`${url} names issuer ${JSON.stringify(body.issuer)}, expected ${JSON.stringify(this.issuer)}`);
    const metadata: AuthorizationServerMetadata = { issuer: this.issuer };
    for (const field of ['jwks_uri', 'introspection_endpoint'] as const) {
      const value = body[field];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !URL.canParse(value)) throw malformed(`${url}: ${field} is not a URL`);
      metadata[field] = value;
    }
    return metadata;
  }
}

function malformed(detail: string): TokenRefusal {
  return unverifiable("the authorization server's metadata is malformed", `metadata: ${detail}`);
}
