import { BackendAuthorizationError, errorMessage, type Logger, type ServerStatus } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { BackendServers } from '../http-app-options.js';
import type { ZodFastifyInstance } from '../rest/rest-route-context.js';
import { type CallbackPage, callbackPage } from './oauth-callback-page.js';
import { oauthCallbackPath } from './oauth-redirect-url.js';
import { ReplicaCallbackTimeoutError } from './replica-callback-relay.js';

const callbackQuerySchema = z.object({
  code: z.string().optional(),
  state: z.string().optional().describe('Says which authorization this completes; an unknown one is refused (400)'),
  iss: z.string().optional().describe('RFC 9207: the authorization server that answered'),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** `BackendAuthorizationError.serverId` of a redirect whose state matches no authorization (client-manager). */
const unknownServer = '(unknown)';

const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

/**
 * `GET /oauth/callback`: where the authorization server sends the browser of the person who authorized a backend
 * (after `POST /v1/servers/:serverId/authorize`). It takes no token: the `state` Search MCP put in the authorization
 * URL says which authorization it completes, and a redirect with any other state changes nothing (400). On success
 * the server is connected before the page is sent.
 */
export function registerOAuthCallbackRoute(app: ZodFastifyInstance, servers: BackendServers, logger: Logger): void {
  app.get(
    oauthCallbackPath,
    {
      schema: {
        summary: 'The OAuth redirect back from a backend server authorization (a browser page, no token)',
        security: [],
        querystring: callbackQuerySchema,
        response: {
          200: htmlResponse('Authorized (the page says whether the server is connected)'),
          400: htmlResponse('The redirect matches no authorization waiting for it; nothing changed'),
          502: htmlResponse('The authorization server refused, or a later step failed (the log says why)'),
          504: htmlResponse('The replica that began this authorization did not answer in time (docs/scale-out.md)'),
          500: htmlResponse('Internal error'),
        },
      },
    },
    async (request, reply) => {
      const page = await complete(servers, queryOf(request), logger);
      return reply
        .code(page.status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'")
        .send(page.html);
    },
  );
}

/** The raw query: the manager reads the callback parameters itself. */
function queryOf(request: FastifyRequest): URLSearchParams {
  const start = request.url.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : request.url.slice(start + 1));
}

async function complete(servers: BackendServers, query: URLSearchParams, logger: Logger): Promise<CallbackPage> {
  let status: ServerStatus;
  try {
    status = await servers.completeAuthorization(query);
  } catch (error) {
    return failurePage(error, logger);
  }
  if (status.state === 'running') {
    return callbackPage(200, 'Search MCP is authorized', [
      `Search MCP may now reach the MCP server '${status.id}', and it is connected. You can close this tab.`,
    ]);
  }
  return callbackPage(200, 'Search MCP is authorized', [
    `Search MCP may now reach the MCP server '${status.id}', but it is not connected yet (state: ${status.state}).`,
    `GET /v1/servers/${status.id} shows its state and last error. You can close this tab.`,
  ]);
}

function failurePage(error: unknown, logger: Logger): CallbackPage {
  // The reason goes to the log only: it may quote what the authorization server put on the redirect.
  if (error instanceof ReplicaCallbackTimeoutError) {
    logger.warn('an OAuth callback got no answer from the replica that began the authorization', {
      server: error.serverId,
    });
    return callbackPage(504, 'Search MCP did not answer in time', [
      `The Search MCP replica that began the authorization of the MCP server '${error.serverId}' did not answer ` +
        'within 15 seconds: it may have stopped. The authorization may still have completed: ' +
        `GET /v1/servers/${error.serverId} says.`,
      `To try again, start with POST /v1/servers/${error.serverId}/authorize.`,
    ]);
  }
  if (!BackendAuthorizationError.isInstance(error)) {
    logger.error('the OAuth callback failed', { error: errorMessage(error) });
    return callbackPage(500, 'Search MCP was not authorized', [
      'Search MCP could not complete this authorization because of an internal error; its log says more.',
    ]);
  }
  logger.warn('an OAuth callback was refused', { server: error.serverId, step: error.step, error: error.message });
  // The manager names no server when the state matched none of its authorizations (the state is what names it).
  if (error.serverId === unknownServer) {
    return callbackPage(400, 'Search MCP was not authorized', [
      'This address does not complete any authorization Search MCP is waiting for: it may be old, already used, ' +
        'or not made by Search MCP. Nothing was changed.',
      'To authorize a server, start again with POST /v1/servers/<server>/authorize.',
    ]);
  }
  return callbackPage(error.statusCode === 400 ? 400 : 502, 'Search MCP was not authorized', [
    `The authorization of the MCP server '${error.serverId}' did not complete (at the ${error.step} step). ` +
      `Search MCP's log and GET /v1/servers/${error.serverId} say why.`,
    `To try again, start with POST /v1/servers/${error.serverId}/authorize.`,
  ]);
}
