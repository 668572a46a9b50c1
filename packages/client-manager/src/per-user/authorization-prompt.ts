import { BackendAuthorizationError } from '@search-mcp/shared';

/**
 * What a caller of a per-user server hears when they have not authorized it yet (or their authorization ended): the
 * URL to open, when one was begun for them, else the host's route that begins one (docs/oauth-in-front.md, "Each
 * caller's own account"). It asks for the caller's own account: nobody else's authorization can stand in for it.
 */
export function authorizationPrompt(
  serverId: string,
  authorizationUrl: string | undefined,
  cause?: unknown,
): BackendAuthorizationError {
  const how =
    authorizationUrl !== undefined
      ? `open ${authorizationUrl} to authorize it with your own account, then call again`
      : `authorize it with your own account (POST /v1/servers/${encodeURIComponent(serverId)}/authorize gives the URL to open), then call again`;
  return new BackendAuthorizationError({
    serverId,
    step: 'authorization',
    needsUser: true,
    // As for a shared server waiting for a login: the backend waits, not the caller's own credentials (never a 401).
    statusCode: 503,
    message: `MCP server '${serverId}' needs your authorization: ${how}`,
    ...(authorizationUrl !== undefined ? { authorizationUrl } : {}),
    ...(cause !== undefined ? { cause } : {}),
  });
}
