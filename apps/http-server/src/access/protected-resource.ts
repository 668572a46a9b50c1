import type { OAuthResourceConfig } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';
import { publicBaseOf, urlBelow } from '../public-url.js';

/** Where the MCP endpoint is, below the app's base URL. */
const mcpPath = 'mcp';
/** RFC 9728: the metadata of resource `<origin>/<path>` is at `<origin>/.well-known/oauth-protected-resource/<path>`. */
export const protectedResourceMetadataPath = '/.well-known/oauth-protected-resource';
/** How many base URLs (`Host` values) keep their resource URL computed. */
const maxRememberedBases = 32;

/**
 * This app as an OAuth-protected resource (docs/oauth-in-front.md): its resource identifier is the URL of `/mcp`
 * (RFC 8707), `<--public-url>/mcp`, else `<the request's origin>/mcp` (a `Host` the Host check accepted).
 */
export class ProtectedResource {
  /** The resource URL by base URL: every request of a caller needs it for its audience check. */
  private readonly resources = new Map<string, string>();

  constructor(
    private readonly config: OAuthResourceConfig,
    private readonly publicUrl: string | undefined,
  ) {}

  /** The resource identifier: the URL of `/mcp`. */
  resourceFor(request: FastifyRequest): string {
    const base = publicBaseOf(request, this.publicUrl);
    let resource = this.resources.get(base);
    if (resource === undefined) {
      resource = urlBelow(base, mcpPath);
      // Bounded: `Host` is caller input where the Host check is off (a server bound to every interface).
      if (this.resources.size < maxRememberedBases) this.resources.set(base, resource);
    }
    return resource;
  }

  /** RFC 9728 metadata URL of the resource (what `WWW-Authenticate: Bearer resource_metadata=…` names). */
  metadataUrlFor(request: FastifyRequest): string {
    const resource = new URL(this.resourceFor(request));
    return new URL(`${protectedResourceMetadataPath}${resource.pathname}`, resource.origin).href;
  }

  /** The RFC 9728 document. */
  metadataFor(request: FastifyRequest): Record<string, unknown> {
    const scopes = this.scopesSupported();
    return {
      resource: this.resourceFor(request),
      authorization_servers: [this.config.issuer],
      ...(scopes.length > 0 ? { scopes_supported: scopes } : {}),
      bearer_methods_supported: ['header'],
      resource_name: 'Search MCP',
    };
  }

  /**
   * The audiences a token must name one of: `auth.oauth.audience`, else this resource for the request it came with.
   * A token minted for another resource is refused, never passed on.
   */
  audiencesFor(request: FastifyRequest): readonly string[] {
    return this.config.audience ?? [this.resourceFor(request)];
  }

  /**
   * What clients are told to ask for: the required scopes only. A role's scopes (an admin scope above all) are the
   * authorization server's to grant to the people who should have them; advertising them would have every client ask
   * for them, and a server that grants what a client asks would give them to everyone (docs/oauth-in-front.md).
   */
  scopesSupported(): string[] {
    return [...(this.config.requiredScopes ?? [])];
  }
}

/** `WWW-Authenticate` of a 401 or 403 (RFC 6750, with RFC 9728's `resource_metadata`); quotes escaped. */
export function bearerChallenge(fields: {
  resourceMetadata: string;
  error?: string;
  description?: string;
  scope?: string;
}): string {
  const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;
  const parts = [`resource_metadata=${quoted(fields.resourceMetadata)}`];
  if (fields.error !== undefined) parts.push(`error=${quoted(fields.error)}`);
  if (fields.description !== undefined) parts.push(`error_description=${quoted(fields.description)}`);
  if (fields.scope !== undefined && fields.scope !== '') parts.push(`scope=${quoted(fields.scope)}`);
  return `Bearer ${parts.join(', ')}`;
}
