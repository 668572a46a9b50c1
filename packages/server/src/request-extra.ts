import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ClientFacingEra } from './eras/client-facing-era.js';
import type { RequestExtra } from './request-extra-types.js';

/** What the view needs of the instance answering: its era's rules and, for a 2025 client, its `initialize`. */
export interface RequestExtraSource {
  readonly clientEra: ClientFacingEra;
  getClientCapabilities(): ClientCapabilities | undefined;
}

/**
 * The era-blind view of a 2.x request context our handlers use: one handler serves both eras. Which capabilities a
 * request's client declared is its era's rule (`eras/`): per request in 2026-07-28, once per session in 2025.
 */
export function requestExtraOf(context: ServerContext, server: RequestExtraSource): RequestExtra {
  const { mcpReq } = context;
  const { clientEra } = server;
  const envelope = mcpReq.envelope as Record<string, unknown> | undefined;
  const requestState = mcpReq.requestState();
  return {
    requestId: mcpReq.id,
    signal: mcpReq.signal,
    sessionId: context.sessionId,
    authInfo: context.http?.authInfo,
    _meta: mcpReq._meta as Record<string, unknown> | undefined,
    envelope,
    era: clientEra.name,
    clientEra,
    clientCapabilities: clientEra.requestCapabilities(envelope?.[CLIENT_CAPABILITIES_META_KEY], server),
    inputResponses: mcpReq.inputResponses,
    requestState: typeof requestState === 'string' ? requestState : undefined,
    sendNotification: (notification) => mcpReq.notify(notification as never),
    sendRequest: (request, resultSchema, options) =>
      mcpReq.send(request as never, resultSchema, options) as Promise<Record<string, unknown>>,
  };
}
