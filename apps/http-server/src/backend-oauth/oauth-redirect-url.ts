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

/**
 * The client manager's OAuth settings in a server process (search-mcp-http, `search-mcp ui`): it opens no browser, so
 * a backend that needs OAuth waits in `needs-auth` until someone authorizes it through `POST
 * /v1/servers/:id/authorize` and the redirect to `/oauth/callback` (README, "Backend servers and OAuth"); a caller of
 * a per-user server who has not authorized it yet gets a link redirecting here (docs/oauth-in-front.md). The base
 * (`--public-url`, else the address the app listens on) is known once the app listens, hence a function.
 */
export function serverProcessOAuth(callbackBase: () => string | undefined) {
  return {
    openAuthorizationUrl: false as const,
    redirectUrl: () => {
      const base = callbackBase();
      return base === undefined ? undefined : urlBelow(base, oauthCallbackPath.slice(1));
    },
  };
}
