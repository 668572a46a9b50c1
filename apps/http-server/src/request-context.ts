/**
 * What the hooks learn about a request and hand to the routes: who sent it, for which project, since when, and what
 * the REST route knows for its audit line. Declared on Fastify's request here, in one place.
 */
import type { Caller, CallerAccess } from '@search-mcp/catalog';
import type { AuditRecord } from '@search-mcp/runtime';
import type { FastifyRequest } from 'fastify';
import type { VerifiedToken } from './access/token-verifier.js';

/** An OAuth caller (docs/oauth-in-front.md): who it is and what its roles allow. Never the token. */
export interface OAuthCaller {
  /** The token's `sub`. */
  subject: string;
  /** The OAuth client it came through (`client_id` / `azp`), when the token says. */
  clientId?: string;
  scopes: readonly string[];
  access: CallerAccess;
  /** A role with `admin: true` matched: the admin routes. */
  admin: boolean;
  /** When the token expires (epoch seconds, its `exp`), when it says: a stream opened with it ends then. */
  expiresAt?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The static token, or for an OAuth caller `oauth:<subject>` with its roles' projects. */
    verifiedToken?: VerifiedToken;
    oauthCaller?: OAuthCaller;
    requestedProject?: string;
    /** performance.now() when the request arrived, for audit durations. */
    receivedAt?: number;
    /** What a REST route knows for its audit line (tool key, queries, result count, outcome, error code). */
    auditFields?: Partial<
      Pick<AuditRecord, 'toolKey' | 'serverId' | 'queries' | 'resultCount' | 'outcome' | 'errorCode'>
    >;
  }
}

/**
 * The catalog's view of who sent a request: its token's id and the project it named; an OAuth caller also its subject
 * and what its roles allow (docs/oauth-in-front.md). Per-user servers key their connections by the token id.
 */
export function callerOf(request: FastifyRequest): Caller {
  const { verifiedToken, oauthCaller } = request;
  return {
    ...(verifiedToken ? { tokenId: verifiedToken.id } : {}),
    ...(request.requestedProject !== undefined ? { projectId: request.requestedProject } : {}),
    ...(oauthCaller ? { subject: oauthCaller.subject, access: oauthCaller.access } : {}),
  };
}

/** The path of a request without its query string (never logged: it may carry tokens). */
export function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '';
}
