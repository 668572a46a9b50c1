import { randomUUID } from 'node:crypto';
import type { SearchMcpRuntime } from '@search-mcp/runtime';
import type { Logger, ServerStatus } from '@search-mcp/shared';

/**
 * `serve`'s OAuth opener (docs/oauth.md): a backend that asks for a login is authorized from inside the AI client,
 * which is asked with a URL-mode elicitation (MCP 2025-11-25) to send its user to the authorization URL. `accept`: the
 * manager waits for the redirect to its loopback listener, and once the server is running the client hears
 * `notifications/elicitation/complete`. Resolves `false` (the server waits in `needs-auth`, and `tool_discovery` and
 * the failing call name `search-mcp auth <server>`) when no client can be asked (a 2026-07-28 client, one without
 * `elicitation.url`), or it declined or cancelled. A decline holds for that server until it runs (authorized from a
 * terminal): the user is not asked again at every call; a cancel (the prompt dismissed) is asked again at the next.
 *
 * `runtimeOf` is read at the first ask: the opener is made before the runtime it belongs to.
 */
export function askClientToAuthorize(
  runtimeOf: () => SearchMcpRuntime | undefined,
  logger: Logger,
): (authorizationUrl: URL, serverId: string) => Promise<boolean> {
  const declined = new Set<string>();
  /** The accepted elicitation of each server whose login is under way, completed when it runs. */
  const accepted = new Map<string, string>();
  let listening = false;
  const onStatus = (status: ServerStatus) => {
    if (status.state !== 'running') return;
    declined.delete(status.id);
    const elicitationId = accepted.get(status.id);
    if (elicitationId === undefined) return;
    accepted.delete(status.id);
    runtimeOf()?.hub.sessions.completeElicitation(elicitationId);
  };
  return async (authorizationUrl, serverId) => {
    const runtime = runtimeOf();
    if (!runtime || declined.has(serverId)) return false;
    if (!listening) {
      listening = true;
      runtime.manager.on('status-change', onStatus);
    }
    const elicitationId = randomUUID();
    const action = await runtime.hub.sessions.elicitUrl({
      serverId,
      url: authorizationUrl.href,
      message: `Authorize Search MCP to use the MCP server '${serverId}'`,
      elicitationId,
    });
    if (action === undefined) {
      logger.info('no client to ask for the OAuth authorization (it needs URL elicitation)', { server: serverId });
      return false;
    }
    logger.info('asked the client to authorize the server', { server: serverId, answer: action });
    if (action === 'accept') {
      accepted.set(serverId, elicitationId);
      return true;
    }
    if (action === 'decline') declined.add(serverId);
    return false;
  };
}
