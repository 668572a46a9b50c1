import { type Caller, isServerAllowed, isServerVisibleToProject } from '@search-mcp/catalog';
import { ServerNotRunningError, TimeoutError, type ToolInfo } from '@search-mcp/shared';
import type { RequestExtra } from '../request-extra-types.js';
import { serverIdOf, startingServerIds, type StartingServerWait, waitForServer } from '../starting-servers.js';
import { startupWaitProgress } from '../startup-wait-progress.js';
import type { HandlerContext, ToolExposure } from './handler-context.js';

/** A server entry's call timeout when the config has none to say (the config's own default). */
const defaultCallTimeoutMs = 60_000;

/**
 * A call to a server still starting waits for it (README, "The first call of a session"): a new session's first
 * call usually comes while the servers connect, and a cold `npx` start takes longer than any fixed grace period. The
 * wait and the call together are bounded by the server's own call timeout (`timeoutMs`): the wait takes at most that,
 * and resolves with what is left of it for the call. A client that gave a progress token hears of the wait every
 * second and at each status change (the call's own progress continues above it). Resolves at once with undefined when
 * nothing is awaited: the server is not starting, or it is one the caller may not see or use (its project's servers,
 * its token's access, as `tool_discovery` filters them), whose call the normal path refuses. Throws the server's own
 * failure when it failed to start (`lastError`), and a timeout when it still starts after `timeoutMs`; a server that
 * now waits for a login is left to the call, whose error names the command that logs in.
 */
export function waitForCalledServer(
  context: HandlerContext,
  name: string,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<CalledServerWait> | undefined {
  const { manager } = context;
  if (!manager) return undefined;
  const serverId = serverIdOf(name);
  if (serverId === undefined) return undefined;
  // Every call comes here: a server not starting is seen from its own state, and nothing is awaited.
  const starting = manager.serverState
    ? manager.serverState(serverId) === 'starting'
    : startingServerIds(manager).includes(serverId);
  if (!starting) return undefined;
  // A server of another project, or one the caller's token may not use, is none of its business: no wait, no start
  // failure (with the server's stderr); the normal path answers as for any tool the caller cannot see.
  const server = context.catalog.config.mcpServers[serverId];
  if (
    server === undefined ||
    !isServerVisibleToProject(server.projects, caller.projectId) ||
    !isServerAllowed(caller.access, caller.projectId, serverId)
  )
    return undefined;
  const limitMs = server.timeoutMs ?? defaultCallTimeoutMs;
  const started = performance.now();
  const progress = startupWaitProgress(meta, extra);
  progress?.(0, [serverId]);
  const onWait = progress ? ({ elapsedMs }: StartingServerWait) => progress(elapsedMs, [serverId]) : undefined;
  return waitForServer(manager, serverId, { limitMs, signal: extra.signal, ...(onWait ? { onWait } : {}) }).then(
    (status) => {
      const remainingMs = Math.max(1, Math.round(limitMs - (performance.now() - started)));
      if (extra.signal.aborted || status === undefined) return { remainingMs };
      if (status.state === 'starting') {
        throw new TimeoutError({
          timeoutMs: limitMs,
          message: `MCP server '${serverId}' is still starting after ${Math.round(limitMs / 1000)} s (its timeoutMs); the call was not run`,
        });
      }
      if (status.state === 'failed') {
        throw new ServerNotRunningError({
          serverId,
          state: status.state,
          isRetryable: false,
          message: `MCP server '${serverId}' failed to start: ${status.lastError ?? 'no reason was recorded'}`,
        });
      }
      return { remainingMs };
    },
  );
}

/** What a wait for a starting server leaves to the call. */
export interface CalledServerWait {
  /** The call's timeout: what is left of the server's `timeoutMs` after the wait (at least 1 ms). */
  remainingMs: number;
}

/** A called tool's key and the caller's tools, once its server (if it was starting) is up: see `resolveCalledTool`. */
export interface CalledTool {
  toolKey: string;
  tools: readonly ToolInfo[];
  /** Set when the call waited for its server: the call's timeout is what the wait left. */
  waited?: CalledServerWait;
}

/**
 * Resolves a direct call's tool name (a listed name: `server__tool`, or the tool's own name with `exposure.names:
 * "original"`) to its key, waiting first for its server when that is still starting. The name is looked up before the
 * wait, so a tool listed from its server's kept list waits for that server whatever its name's form; and again after
 * it, since a server that had no kept list brings its tools (and their listed names) only when it is up. At once
 * (no promise) while the caller's tools are unchanged and the server is not starting: nearly every forwarded call.
 */
export function resolveCalledTool(
  context: HandlerContext,
  name: string,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): CalledTool | Promise<CalledTool> {
  const exposure = context.exposure(caller);
  if (exposure instanceof Promise)
    return exposure.then((listed) => calledTool(context, listed, name, caller, meta, extra));
  return calledTool(context, exposure, name, caller, meta, extra);
}

function calledTool(
  context: HandlerContext,
  exposure: ToolExposure,
  name: string,
  caller: Caller,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): CalledTool | Promise<CalledTool> {
  const starting = waitForCalledServer(context, exposure.names.keyOf(name) ?? name, caller, meta, extra);
  if (!starting) return { toolKey: exposure.names.keyOf(name) ?? name, tools: exposure.tools };
  return starting.then(async (waited) => {
    const after = await context.exposure(caller);
    return { toolKey: after.names.keyOf(name) ?? name, tools: after.tools, waited };
  });
}
