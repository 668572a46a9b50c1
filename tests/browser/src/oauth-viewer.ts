/**
 * A caller that may look but not act: an OAuth client of a real authorization server (oidc-provider, from
 * `@search-mcp/test-kit/oauth`) whose client-credentials token carries only `mcp:read`, which the console app's
 * roles map to a role without `admin` (docs/oauth-in-front.md, "Roles"). A token limited to projects cannot stand in
 * for it: the console names no project, and such a token is refused without one (docs/projects-and-tokens.md).
 */
import { type AuthorizationServer, startAuthorizationServer } from '@search-mcp/test-kit/oauth';

const clientId = 'console-viewer';
const clientSecret = 'console-viewer-secret-0123456789';

/** The roles of the console app's `auth.oauth`: `mcp:admin` acts, `mcp:read` only looks. */
export const consoleRoles = [{ scopes: ['mcp:admin'], admin: true }, { scopes: ['mcp:read'] }];

export interface ViewerIssuer {
  issuer: string;
  /** An access token for `resource` (an app's `/mcp` URL) with the scope `mcp:read` only. */
  viewerToken(resource: string): Promise<string>;
  close(): Promise<void>;
}

export async function startViewerIssuer(): Promise<ViewerIssuer> {
  const server: AuthorizationServer = await startAuthorizationServer();
  await server.registerClient({
    client_id: clientId,
    client_secret: clientSecret,
    grant_types: ['client_credentials'],
    redirect_uris: [],
  });
  return {
    issuer: server.issuer,
    async viewerToken(resource) {
      server.allowResource(resource);
      const metadata = (await (await fetch(server.metadataUrl)).json()) as { token_endpoint: string };
      const response = await fetch(metadata.token_endpoint, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'mcp:read' }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no viewer token (${response.status}): ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () => server.close(),
  };
}
