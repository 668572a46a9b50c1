import type { KoaContextWithOIDC } from 'oidc-provider';

type Middleware = (context: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

/** The endpoints a test can make fail, by oidc-provider's paths. */
export type AuthorizationServerEndpoint =
  | 'metadata'
  | 'registration'
  | 'authorization'
  | 'token'
  | 'revocation'
  | 'jwks';

/** An answer given instead of oidc-provider's. */
export interface PlannedFault {
  status: number;
  /** Sent as it is (malformed JSON, an HTML page, a document with another issuer). Default empty. */
  body?: string;
  /** Default `application/json`. */
  contentType?: string;
  /** How many requests get it. Default 1. */
  times?: number;
}

const endpointOf = (path: string): AuthorizationServerEndpoint | undefined => {
  if (path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration') {
    return 'metadata';
  }
  if (path === '/reg') return 'registration';
  if (path === '/auth') return 'authorization';
  if (path === '/token') return 'token';
  if (path === '/token/revocation') return 'revocation';
  if (path === '/jwks') return 'jwks';
  return undefined;
};

/**
 * Faults on demand, for the "bad input" tests of a client: the next request(s) to an endpoint get the planned answer
 * instead of oidc-provider's (which then never sees them).
 */
export function createFaultInjection(): {
  middleware: Middleware;
  failNext(endpoint: AuthorizationServerEndpoint, fault: PlannedFault): void;
} {
  const planned = new Map<AuthorizationServerEndpoint, PlannedFault & { left: number }>();
  return {
    middleware: async (context, next) => {
      const endpoint = endpointOf(context.path);
      const fault = endpoint === undefined ? undefined : planned.get(endpoint);
      if (endpoint === undefined || fault === undefined) return next();
      fault.left -= 1;
      if (fault.left <= 0) planned.delete(endpoint);
      context.status = fault.status;
      context.set('content-type', fault.contentType ?? 'application/json');
      context.body = fault.body ?? '';
    },
    failNext(endpoint, fault) {
      planned.set(endpoint, { ...fault, left: fault.times ?? 1 });
    },
  };
}
