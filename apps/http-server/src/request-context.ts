/**
 * What the hooks learn about a request and hand to the routes: who sent it, for which project, since when, and what
 * the REST route knows for its audit line. Declared on Fastify's request here, in one place.
 */
import type { Caller } from '@search-mcp/catalog';
import type { AuditRecord } from '@search-mcp/runtime';
import type { FastifyRequest } from 'fastify';
import type { VerifiedToken } from './access/token-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    verifiedToken?: VerifiedToken;
    requestedProject?: string;
    /** performance.now() when the request arrived, for audit durations. */
    receivedAt?: number;
    /** What a REST route knows for its audit line (tool key, queries, result count, outcome, error code). */
    auditFields?: Partial<
      Pick<AuditRecord, 'toolKey' | 'serverId' | 'queries' | 'resultCount' | 'outcome' | 'errorCode'>
    >;
  }
}

/** The catalog's view of who sent a request: its token's id and the project it named. */
export function callerOf(request: FastifyRequest): Caller {
  return {
    ...(request.verifiedToken ? { tokenId: request.verifiedToken.id } : {}),
    ...(request.requestedProject !== undefined ? { projectId: request.requestedProject } : {}),
  };
}

/** The path of a request without its query string (never logged: it may carry tokens). */
export function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '';
}
