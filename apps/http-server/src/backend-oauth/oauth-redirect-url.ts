import type { FastifyRequest } from 'fastify';
import { publicBaseOf, urlBelow } from '../public-url.js';

/** Where authorization servers send the browser back (`GET /oauth/callback`). */
export const oauthCallbackPath = '/oauth/callback';

/**
 * The redirect URI of an authorization this app starts: `<base>/oauth/callback`, with base the configured public URL
 * (`--public-url`, for a proxy in front: its scheme, host and path prefix), else the request's own origin. The `Host`
 * header is one the Host check accepted (a name of this machine or an `--allowed-host`), and the person who starts
 * the authorization reached the app by it, so their browser can come back by it too.
 */
export function oauthRedirectUrl(request: FastifyRequest, publicUrl?: string): string {
  return urlBelow(publicBaseOf(request, publicUrl), oauthCallbackPath.slice(1));
}
