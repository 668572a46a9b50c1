import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http-errors.js';
import { hostNameOf, loopbackHostNames } from './allowed-hosts.js';

export interface HostOriginGuardOptions {
  /** Host names the `Host` header may name; `null` turns the check off. Default: this machine's loopback names. */
  allowedHosts?: readonly string[] | null;
  /** Browser origins allowed besides this machine (`--cors-origin`). */
  corsOrigins: ReadonlySet<string>;
}

/**
 * A web page must not drive local tools: the `Host` header must name this machine (DNS rebinding), and a browser's
 * `Origin` must be a configured one or this machine (CSRF). Both are refused with 403 before anything else runs.
 */
export function registerHostOriginGuard(app: FastifyInstance, options: HostOriginGuardOptions): void {
  const allowedHosts =
    options.allowedHosts === null
      ? undefined
      : new Set((options.allowedHosts ?? loopbackHostNames).map((host) => host.toLowerCase()));
  app.addHook('onRequest', async (request, reply) => {
    if (allowedHosts) {
      const host = hostNameOf(request.headers.host ?? '', false);
      if (host === undefined || !allowedHosts.has(host)) {
        return reply
          .code(403)
          .send(errorBody(`Host ${request.headers.host ?? '(none)'} is not allowed`, 'FORBIDDEN_HOST'));
      }
    }
    const origin = request.headers.origin;
    if (origin === undefined || options.corsOrigins.has(origin)) return;
    const originHost = hostNameOf(origin, true);
    const trusted = allowedHosts
      ? originHost !== undefined && allowedHosts.has(originHost)
      : sameOrigin(origin, request.headers.host);
    if (!trusted) return reply.code(403).send(errorBody(`Origin ${origin} is not allowed`, 'FORBIDDEN_ORIGIN'));
  });
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
