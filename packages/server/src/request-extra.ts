import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isRecord } from '@search-mcp/shared';
import type { RequestExtra } from './request-extra-types.js';

/** What the view needs of the instance answering: its era and, for a 2025 client, what it declared in `initialize`. */
export interface RequestExtraSource {
  servesModernEra(): boolean;
  getClientCapabilities(): ClientCapabilities | undefined;
}

/**
 * The era-blind view of a 2.x request context our handlers use: one handler serves both eras. A 2026-07-28 request's
 * client capabilities are its envelope's (the revision declares them per request), a 2025 request's the session's.
 */
export function requestExtraOf(context: ServerContext, server: RequestExtraSource): RequestExtra {
  const { mcpReq } = context;
  const modern = server.servesModernEra();
  const envelope = mcpReq.envelope as Record<string, unknown> | undefined;
  const envelopeCapabilities = modern ? envelope?.[CLIENT_CAPABILITIES_META_KEY] : undefined;
  const requestState = mcpReq.requestState();
  return {
    requestId: mcpReq.id,
    signal: mcpReq.signal,
    sessionId: context.sessionId,
    authInfo: context.http?.authInfo,
    _meta: mcpReq._meta as Record<string, unknown> | undefined,
    envelope,
    era: modern ? 'modern' : 'legacy',
    clientCapabilities: modern
      ? isRecord(envelopeCapabilities)
        ? (envelopeCapabilities as ClientCapabilities)
        : undefined
      : server.getClientCapabilities(),
    inputResponses: mcpReq.inputResponses,
    requestState: typeof requestState === 'string' ? requestState : undefined,
    sendNotification: (notification) => mcpReq.notify(notification as never),
    sendRequest: (request, resultSchema, options) =>
      mcpReq.send(request as never, resultSchema, options) as Promise<Record<string, unknown>>,
  };
}
