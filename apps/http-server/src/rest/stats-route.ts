import { isServerVisibleToProject, isToolAllowed, type ToolCatalog } from '@search-mcp/catalog';
import { OTHER_SERIES, type UsageReport, type UsageReportQuery, UsageStatistics } from '@search-mcp/runtime';
import { AuthorizationError, parseToolKey } from '@search-mcp/shared';
import type { FastifyRequest } from 'fastify';
import { assertAdmin } from '../access/admin-access.js';
import { errorResponses } from '../openapi/documented-responses.js';
import { callerOf } from '../request-context.js';
import type { ZodFastifyInstance } from './rest-route-context.js';
import { projectHeaderSchema } from './rest-schemas.js';
import { statsQuerySchema, usageReportSchema } from './stats-schemas.js';

export interface StatsRouteContext {
  catalog: ToolCatalog;
  /** The runtime's usage statistics; without them (a bare test runtime) the route answers zeros. */
  usage?:
    | {
        report(query: UsageReportQuery): UsageReport;
        /** Every replica's figures summed (docs/scale-out.md, "Usage statistics"): used when present. */
        reportAcrossReplicas?(query: UsageReportQuery): Promise<UsageReport>;
      }
    | undefined;
}

/**
 * `GET /v1/stats?window=&serverId=&toolKey=` (docs/console.md, "Usage statistics"): any caller, over the tools it
 * may see — those `GET /v1/tools` lists for it, and those of servers its project and roles may see that are not
 * connected now (their history stays visible while they are down), never a tool its server's `toolPermissions` turns
 * off. The `(other)` series (tools past the cap) mixes every project's tools: only an admin sees it.
 */
export function registerStatsRoute(app: ZodFastifyInstance, context: StatsRouteContext): void {
  const usage = context.usage ?? new UsageStatistics();
  const { catalog } = context;

  const visibility = async (request: FastifyRequest) => {
    const token = request.verifiedToken;
    const project = request.requestedProject;
    // Like the other REST routes: a token limited to projects must name one (docs/projects-and-tokens.md).
    if (token?.projects && project === undefined) {
      throw new AuthorizationError({
        message: `Token '${token.id}' may not be used without a project; it is limited to: ${token.projects.join(', ')}`,
      });
    }
    const caller = callerOf(request);
    const listed = new Set((await catalog.list({}, caller)).map((tool) => tool.toolKey));
    // The `(other)` series mixes every project's tools: admins only (an anonymous caller is nobody in particular).
    const admin = isAdmin(request) && project === undefined;
    const configured = catalog.config.mcpServers;
    return (toolKey: string, serverId: string): boolean => {
      if (toolKey === OTHER_SERIES) return admin;
      if (listed.has(toolKey)) return true;
      const server = Object.hasOwn(configured, serverId) ? configured[serverId] : undefined;
      if (server === undefined) return false;
      // A tool its server's `toolPermissions` turns off is hidden from everyone, connected or not.
      const toolName = parseToolKey(toolKey)?.toolName;
      if (toolName !== undefined && Object.hasOwn(server.toolPermissions, toolName)) {
        if (server.toolPermissions[toolName] === false) return false;
      }
      return (
        isServerVisibleToProject(server.projects, project) && isToolAllowed(caller.access, project, serverId, toolKey)
      );
    };
  };

  app.get(
    '/v1/stats',
    {
      schema: {
        summary: 'Usage statistics of the tools the caller may see: calls, errors, durations, searches',
        headers: projectHeaderSchema,
        querystring: statsQuerySchema,
        response: { 200: usageReportSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const { window, serverId, toolKey } = request.query;
      const query: UsageReportQuery = {
        window,
        ...(serverId !== undefined ? { serverId } : {}),
        ...(toolKey !== undefined ? { toolKey } : {}),
        visible: await visibility(request),
      };
      return usage.reportAcrossReplicas ? await usage.reportAcrossReplicas(query) : usage.report(query);
    },
  );
}

/** An admin token or OAuth admin role (`assertAdmin`); anonymous callers and tokens limited to projects are not. */
function isAdmin(request: FastifyRequest): boolean {
  try {
    assertAdmin(request, 'The (other) series');
    return true;
  } catch {
    return false;
  }
}
