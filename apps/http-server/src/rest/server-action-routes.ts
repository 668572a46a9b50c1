import type { ToolCatalog } from '@search-mcp/catalog';
import { errorMessage, type ServerStatus } from '@search-mcp/shared';
import { assertAdmin } from '../access/admin-access.js';
import type { AdminActionReplicas, BackendServers } from '../http-app-options.js';
import { conflict, notFound } from '../http-errors.js';
import { errorResponses } from '../openapi/documented-responses.js';
import type { ZodFastifyInstance } from './rest-route-context.js';
import { serverIdParamsSchema, serverStatusSchema } from './rest-schemas.js';

export interface ServerActionRoutesContext {
  catalog: ToolCatalog;
  servers: BackendServers;
  /** The other replicas, told of each action (the runtime's `replicas`); absent or not shared: this replica only. */
  replicas?: AdminActionReplicas | undefined;
}

type Action = 'restart' | 'enable' | 'disable';

/** Where an admin action was done: `every-replica` or `this-replica` (docs/scale-out.md). */
export const appliedToHeader = 'search-mcp-applied-to';

const summaries: Record<Action, string> = {
  restart: 'Restart a backend server (admin): its process ends and starts again',
  enable: 'Start a backend server stopped by disable (admin)',
  disable: 'Stop a backend server until enable or a restart of the app (admin); its tools leave the catalog',
};

/**
 * The console's server actions (docs/console.md, "REST API used by the console"): `POST /v1/servers/:serverId/restart`,
 * `…/enable` and `…/disable`, admin only. Each answers the server's status once the action is done; a start that
 * fails is no error here: the status says `failed` with its `lastError`. A server disabled in the config is the
 * config's to enable: every action on it is 409. With replicas sharing a store, every replica does the action on its
 * own backend (docs/scale-out.md): the status is this replica's, and the `Search-MCP-Applied-To` header says
 * `every-replica` (else `this-replica`).
 */
export function registerServerActionRoutes(app: ZodFastifyInstance, context: ServerActionRoutesContext): void {
  const { catalog, servers } = context;
  const act: Record<Action, (id: string) => Promise<void>> = {
    restart: (id) => servers.restart(id),
    enable: (id) => servers.start(id),
    disable: (id) => servers.stop(id),
  };
  for (const action of Object.keys(act) as Action[]) {
    app.post(
      `/v1/servers/:serverId/${action}`,
      {
        schema: {
          summary: summaries[action],
          params: serverIdParamsSchema,
          response: { 200: serverStatusSchema, ...errorResponses(404, 409) },
        },
      },
      async (request, reply) => {
        const { serverId } = request.params;
        request.auditFields = { serverId };
        assertAdmin(request, `${action[0]?.toUpperCase()}${action.slice(1)} of a backend server`);
        const configured = catalog.config.mcpServers;
        const server = Object.hasOwn(configured, serverId) ? configured[serverId] : undefined;
        if (!server || !servers.status().some((status) => status.id === serverId)) {
          throw notFound(`No MCP server '${serverId}'`);
        }
        if (server.enabled === false) {
          throw conflict(
            `MCP server '${serverId}' is disabled in the config ("enabled": false): set it to true there to run it`,
          );
        }
        // Told before the wait: the other replicas act meanwhile (a publish that fails is logged, never thrown).
        const told = context.replicas?.shared
          ? context.replicas.publish({ kind: 'server', action, serverId })
          : undefined;
        void reply.header(appliedToHeader, told ? 'every-replica' : 'this-replica');
        try {
          await act[action](serverId);
        } catch (error) {
          // The status below carries why (state `failed`, `lastError`); anything else is the manager's to log.
          request.auditFields = { ...request.auditFields, errorCode: 'ACTION_FAILED' };
          request.log.debug({ error: errorMessage(error) }, `${action} of ${serverId} failed`);
        }
        await told;
        const status = servers.status().find((candidate) => candidate.id === serverId);
        if (!status) throw notFound(`No MCP server '${serverId}'`);
        return statusBody(status);
      },
    );
  }
}

/** The status as the API shows it: no process id. */
function statusBody(status: ServerStatus) {
  const { pid: _pid, ...shown } = status;
  return shown;
}
