import type { ToolCatalog } from '@search-mcp/catalog';
import { isServerAllowed, isServerVisibleToProject } from '@search-mcp/catalog';
import { AuthenticationError, AuthorizationError, isPerUserServer, type ServerStatus } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';
import { assertAdmin } from '../access/admin-access.js';
import { oauthRedirectUrl } from '../backend-oauth/oauth-redirect-url.js';
import { callerOf } from '../request-context.js';
import { notFound } from '../http-errors.js';
import type { BackendServers } from '../http-app-options.js';
import { errorResponses } from '../openapi/documented-responses.js';
import type { ZodFastifyInstance } from './rest-route-context.js';
import {
  authorizeQuerySchema,
  authorizeResponseSchema,
  projectHeaderSchema,
  serverIdParamsSchema,
  serverListSchema,
  serverStatusSchema,
} from './rest-schemas.js';

export interface ServerRoutesContext {
  catalog: ToolCatalog;
  servers: BackendServers;
  /** `--public-url`: the base of the OAuth redirect URI; default the request's origin. */
  publicUrl?: string;
}

/**
 * `GET /v1/servers`, `GET /v1/servers/:serverId` (the backends the caller's project may see, with their state and
 * OAuth state) and `POST /v1/servers/:serverId/authorize` (admin tokens only: starts an OAuth authorization whose
 * redirect comes back to this app's `/oauth/callback`; for a per-user server, any caller, for their own account).
 * apps/http-server/README.md, "Backend servers and OAuth"; docs/oauth-in-front.md.
 */
export function registerServerRoutes(app: ZodFastifyInstance, context: ServerRoutesContext): void {
  const { catalog, servers } = context;

  /** The statuses the caller may see: a server outside its project does not exist for it (404, never 403). */
  const visibleStatuses = (request: FastifyRequest): ServerStatus[] => {
    const token = request.verifiedToken;
    const project = request.requestedProject;
    // The hook checked every project named; a token limited to projects must name one (docs/projects-and-tokens.md).
    if (token?.projects && project === undefined) {
      throw new AuthorizationError({
        message: `Token '${token.id}' may not be used without a project; it is limited to: ${token.projects.join(', ')}`,
      });
    }
    const configured = catalog.config.mcpServers;
    const access = request.oauthCaller?.access;
    return servers.status().filter((status) => {
      const server = Object.hasOwn(configured, status.id) ? configured[status.id] : undefined;
      return (
        server !== undefined &&
        isServerVisibleToProject(server.projects, project) &&
        isServerAllowed(access, project, status.id)
      );
    });
  };

  app.get(
    '/v1/servers',
    {
      schema: {
        summary: 'The backend MCP servers the caller may see, with their state',
        headers: projectHeaderSchema,
        response: { 200: serverListSchema, ...errorResponses() },
      },
    },
    async (request) => ({ servers: visibleStatuses(request).map(statusBody) }),
  );

  app.get(
    '/v1/servers/:serverId',
    {
      schema: {
        summary: 'One backend MCP server with its state',
        headers: projectHeaderSchema,
        params: serverIdParamsSchema,
        response: { 200: serverStatusSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { serverId } = request.params;
      request.auditFields = { serverId };
      const status = visibleStatuses(request).find((candidate) => candidate.id === serverId);
      if (!status) throw notFound(`No MCP server '${serverId}'`);
      return statusBody(status);
    },
  );

  app.post(
    '/v1/servers/:serverId/authorize',
    {
      schema: {
        summary:
          'Start an OAuth authorization of a backend server (admin tokens only; any caller for a per-user server)',
        description:
          'Answers the URL a person opens to authorize; the authorization server then sends their browser to ' +
          '/oauth/callback, which completes it and connects the server. Always a new authorization; a server whose ' +
          'grant needs no person (client credentials) answers `authorized: true` instead. A server with `identity: ' +
          '"per-user"` is authorized by each caller with their own account, for themselves only.',
        params: serverIdParamsSchema,
        querystring: authorizeQuerySchema,
        response: { 200: authorizeResponseSchema, ...errorResponses(404, 502) },
      },
    },
    async (request) => {
      const { serverId } = request.params;
      request.auditFields = { serverId };
      const configured = catalog.config.mcpServers;
      const server = Object.hasOwn(configured, serverId) ? configured[serverId] : undefined;
      // A per-user server's authorization is the caller's own (docs/oauth-in-front.md): any caller who may see it. Its
      // shared connection (`?shared=true`) is an admin's business, as any shared server's.
      const perUser = server !== undefined && isPerUserServer(server) && request.query.shared !== 'true';
      if (perUser && server?.enabled === false) {
        throw new AuthorizationError({ message: `MCP server '${serverId}' is disabled in the config` });
      }
      if (perUser) {
        if (!visibleStatuses(request).some((status) => status.id === serverId)) {
          throw notFound(`No MCP server '${serverId}'`);
        }
      } else {
        assertAdmin(request, 'Authorizing a backend server');
        if (!servers.status().some((status) => status.id === serverId)) {
          throw notFound(`No MCP server '${serverId}'`);
        }
      }
      const redirectUrl = oauthRedirectUrl(request, context.publicUrl);
      // The caller's own connection is keyed by its token id, as its calls are (docs/oauth-in-front.md).
      const subject = perUser ? callerOf(request).tokenId : undefined;
      if (perUser && subject === undefined) {
        throw new AuthenticationError({
          message: `MCP server '${serverId}' is authorized by each caller for themselves: send a token`,
        });
      }
      const { authorizationUrl } = await servers.beginAuthorization(serverId, {
        redirectUrl,
        ...(subject !== undefined ? { subject } : {}),
      });
      return authorizationUrl !== undefined ? { serverId, authorizationUrl } : { serverId, authorized: true as const };
    },
  );
}

/** The status as the API shows it: no process id (a caller has no use for it). */
function statusBody(status: ServerStatus) {
  const { pid: _pid, ...shown } = status;
  return shown;
}
