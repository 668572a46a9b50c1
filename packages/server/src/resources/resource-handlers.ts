import { errorMessage, JsonRpcErrorCode } from '@search-mcp/shared';
import type { Listed } from '../forwarding/backend-gateway.js';
import { backendOptions, type ForwardingContext } from '../forwarding/forwarding-context.js';
import { decodeListCursor, encodeListCursor, type ListKind } from '../forwarding/list-cursor.js';
import { answerRound, attemptOptions, openRoundState, roundBinding } from '../input/input-round.js';
import type { ParamsCheckingServer } from '../params-checking-server.js';
import type { RequestExtra } from '../request-extra-types.js';
import { offersSubscriptions } from './resource-subscriptions.js';
import { isNotFound, JsonRpcWireError, toForwardedError } from '../wire-errors.js';

/**
 * `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `unsubscribe` over the
 * backends the caller sees. Lists are paged one backend page per answer, in config order, by cursors of ours; URIs
 * pass unchanged; a read goes to the first server of `ResourceRoutes.candidates` that has the resource. A 2026-07-28
 * backend's `input_required` goes to the client with our signed state (bound to the caller, the uri and that server);
 * the retry goes to that server only, with the answers and the backend's own state. A 2025 backend's push request
 * during a 2026-07-28 client's read is parked with the read, asked in an `input_required` round, and the retry
 * continues that read (`input/input-round.ts`).
 */
export function registerResourceHandlers(server: ParamsCheckingServer, context: ForwardingContext): void {
  const { hub } = context;
  server.handle('resources/list', (request, extra) => listPage(context, 'resources', request.params, extra));
  server.handle('resources/templates/list', (request, extra) =>
    listPage(context, 'resourceTemplates', request.params, extra),
  );
  server.handle('resources/read', async (request, extra) => {
    const { uri, _meta } = request.params;
    const servers = await candidatesFor(context, uri, _meta, extra);
    const binding = roundBinding(context.callerOf(_meta, extra), 'resources/read', { uri });
    const state = openRoundState(context.inputs, extra, binding);
    const options = backendOptions(context, _meta, extra);
    const read = (serverId: string) =>
      answerRound<Record<string, unknown>>({
        inputs: context.inputs,
        extra,
        binding,
        state,
        serverId,
        // A 2025 backend may push a request to a 2026-07-28 client during it: parked in the read, asked by a round.
        parks: extra.clientEra.asksClientBy === 'park',
        send: (attempt) => hub.gateway.readResource(serverId, uri, attemptOptions(options, attempt)),
        onDropped: (reason) =>
          hub.logger.warn('a resources/read waiting for the client to answer was dropped and cancelled', {
            ...(serverId !== '' ? { server: serverId } : {}),
            uri,
            reason,
          }),
      });
    if (state) {
      // A retry goes to the server its state names, if the caller still sees it (else the state is refused); a
      // parked read's retry continues the read wherever it runs.
      try {
        return await read(state.kind === 'backend' && servers.includes(state.server) ? state.server : '');
      } catch (error) {
        throw toForwardedError(error, uri);
      }
    }
    for (const serverId of servers) {
      try {
        return await read(serverId);
      } catch (error) {
        if (!isNotFound(error)) throw toForwardedError(error, uri);
      }
    }
    throw resourceNotFound(uri);
  });
  // We announce `resources.subscribe` whatever the backends offer, so a resource a visible server serves can always be
  // subscribed: at the first candidate that takes subscriptions, else at the read's route, which is not asked (it has
  // no such method) but whose updates, sent anyway or once it offers subscriptions, reach the session.
  server.handle('resources/subscribe', async (request, extra) => {
    const { uri, _meta } = request.params;
    const servers = await candidatesFor(context, uri, _meta, extra);
    const serverId = servers.find((id) => offersSubscriptions(hub.gateway, id)) ?? servers[0];
    if (serverId === undefined) throw resourceNotFound(uri);
    try {
      await hub.subscribe(context.session, serverId, uri);
    } catch (error) {
      throw toForwardedError(error, uri);
    }
    return {};
  });
  // The session's own subscription ends, wherever it is (a server since hidden or stopped included).
  server.handle('resources/unsubscribe', async (request) => {
    const { uri } = request.params;
    try {
      await hub.unsubscribe(context.session, uri);
    } catch (error) {
      throw toForwardedError(error, uri);
    }
    return {};
  });
}

async function candidatesFor(
  context: ForwardingContext,
  uri: string,
  meta: Record<string, unknown> | undefined,
  extra: RequestExtra,
): Promise<string[]> {
  await context.startupSettled(extra);
  try {
    const visible = await context.hub.visibleServerIds(context.callerOf(meta, extra));
    return await context.hub.routes.candidates(uri, visible);
  } catch (error) {
    throw toForwardedError(error, uri);
  }
}

function resourceNotFound(uri: string): JsonRpcWireError {
  // What SDK 2.x sends for an unknown resource on every protocol revision.
  return new JsonRpcWireError(JsonRpcErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
}

type ListKey = 'resources' | 'resourceTemplates';

/**
 * One page of a list spanning servers: the page the cursor points at (default: the first server's first), then our
 * cursor for the same server's next page, else the next server's first. Empty pages are skipped (at most one pass
 * over the servers); a server failing to list is skipped with a warning, so one broken server hides only itself.
 */
async function listPage(
  context: ForwardingContext,
  kind: ListKey & ListKind,
  params: { cursor?: string | undefined; _meta?: Record<string, unknown> | undefined } | undefined,
  extra: RequestExtra,
): Promise<Record<string, unknown>> {
  const { hub } = context;
  let visible: string[];
  if (params?.cursor === undefined) await context.startupSettled(extra);
  try {
    visible = (await hub.visibleServerIds(context.callerOf(params?._meta, extra))).filter((id) =>
      hub.offers(id, 'resources'),
    );
  } catch (error) {
    throw toForwardedError(error, kind);
  }
  const start =
    params?.cursor !== undefined
      ? decodeListCursor(kind, params.cursor, visible)
      : visible[0]
        ? { serverId: visible[0] }
        : undefined;
  if (!start) return { [kind]: [] };
  let index = visible.indexOf(start.serverId);
  let cursor = start.cursor;
  const options = backendOptions(context, params?._meta, extra);
  for (let pages = 0; index < visible.length && pages < visible.length + 100; pages += 1) {
    const serverId = visible[index] as string;
    let entries: Listed[] = [];
    let nextCursor: string | undefined;
    try {
      const page =
        kind === 'resources'
          ? await hub.gateway.listResources(serverId, cursor, options)
          : await hub.gateway.listResourceTemplates(serverId, cursor, options);
      entries =
        kind === 'resources'
          ? (page as { resources: Listed[] }).resources
          : (page as { resourceTemplates: Listed[] }).resourceTemplates;
      nextCursor = page.nextCursor;
    } catch (error) {
      if (extra.signal.aborted) throw error;
      hub.logger.warn(`a server failed to list ${kind}; listing the others`, {
        server: serverId,
        error: errorMessage(error),
      });
    }
    const following = visible[index + 1];
    const next =
      nextCursor !== undefined
        ? { serverId, cursor: nextCursor }
        : following !== undefined
          ? { serverId: following }
          : undefined;
    if (entries.length > 0 || next === undefined) {
      return { [kind]: entries, ...(next ? { nextCursor: encodeListCursor(kind, next) } : {}) };
    }
    index = visible.indexOf(next.serverId);
    cursor = next.cursor;
  }
  return { [kind]: [] };
}
