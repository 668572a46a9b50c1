import type { FastifyRequest } from 'fastify';

/**
 * The base URL clients reach the app at: `--public-url` (behind a proxy: its scheme, host and path prefix), else the
 * request's own origin (its `Host`, which the Host check has accepted).
 */
export function publicBaseOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.headers.host ?? request.hostname}`;
}

/** `path` below `base`, keeping the base's own path (a proxy's prefix): `urlBelow('https://x/search', 'mcp')`. */
export function urlBelow(base: string, path: string): string {
  return new URL(path, base.endsWith('/') ? base : `${base}/`).href;
}
