import { randomUUID } from 'node:crypto';
import { BackendAuthorizationError } from '@search-mcp/shared';
import type { RequestExtra } from './request-extra-types.js';
import { JsonRpcWireError } from './wire-errors.js';

/** MCP's `URLElicitationRequiredError` code (2025-11-25). */
const urlElicitationRequired = -32042;

/**
 * A call that cannot run until the person authorizes a backend with their own account (a per-user server they have
 * not authorized yet, docs/oauth-in-front.md) becomes MCP's `URLElicitationRequiredError` (-32042) for a 2025 client
 * that declared `elicitation.url`: the client shows the person the authorization URL and retries the call afterwards.
 * Anything else (and every other client) keeps its usual shape: an error that names the link. Undefined then.
 */
export function authorizationElicitation(error: unknown, extra: RequestExtra): JsonRpcWireError | undefined {
  if (!BackendAuthorizationError.isInstance(error) || error.authorizationUrl === undefined) return undefined;
  if (extra.era !== 'legacy' || extra.clientCapabilities?.elicitation?.url === undefined) return undefined;
  return new JsonRpcWireError(urlElicitationRequired, error.message, {
    elicitations: [
      {
        mode: 'url',
        elicitationId: randomUUID(),
        url: error.authorizationUrl,
        message: `Authorize the MCP server '${error.serverId}' with your own account, then try again`,
      },
    ],
  });
}
