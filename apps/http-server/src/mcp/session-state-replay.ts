import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { errorMessage, type Logger } from '@search-mcp/shared';
import type { EndpointSession } from './endpoint-session.js';
import { serveInternally } from './internal-request.js';
import type { SharedSessionRecord } from './shared-session-record.js';

type SessionState = Pick<SharedSessionRecord, 'logLevel' | 'subscriptions'>;

/**
 * Brings a session on this replica to the log level and resource subscriptions of `target`, from `current`, by serving
 * the client's own requests for them internally (`logging/setLevel`, `resources/subscribe`/`unsubscribe`; answers
 * discarded): after a rebuild, and when the client changed them through another replica that also holds the session
 * (apps/http-server/README.md, "Replicas"). Throws when the transport refuses one.
 */
export async function replaySessionState(
  session: EndpointSession,
  current: SessionState | undefined,
  target: SessionState,
): Promise<void> {
  const { transport } = session;
  const id = transport.sessionId;
  const protocolVersion = transport.negotiatedProtocolVersion;
  if (id === undefined || protocolVersion === undefined) throw new Error('the session is not initialized');
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion };
  const requests: Array<{ method: string; params: Record<string, unknown> }> = [];
  if (target.logLevel !== undefined && target.logLevel !== current?.logLevel) {
    requests.push({ method: 'logging/setLevel', params: { level: target.logLevel } });
  }
  const before = new Set(current?.subscriptions ?? []);
  const after = new Set(target.subscriptions ?? []);
  for (const uri of after) if (!before.has(uri)) requests.push({ method: 'resources/subscribe', params: { uri } });
  for (const uri of before) if (!after.has(uri)) requests.push({ method: 'resources/unsubscribe', params: { uri } });
  const ids: string[] = [];
  try {
    for (const request of requests) {
      const requestId = `search-mcp:replay:${randomUUID()}`;
      ids.push(requestId);
      const message = { jsonrpc: '2.0', id: requestId, ...request } as JSONRPCMessage;
      const status = await serveInternally(transport.inner, message, headers);
      if (status !== 200) throw new Error(`replaying ${request.method} answered ${status}`);
    }
  } finally {
    // Nobody will resume the replayed answers' streams.
    session.events.delivered(ids);
  }
}

/**
 * The client changed its session's log level or subscriptions through another replica: this replica's copy of the
 * session follows, so what it sends the client (log messages, resource updates on its GET stream) matches.
 */
export function applyChangeFromElsewhere(
  id: string,
  session: EndpointSession,
  record: SharedSessionRecord,
  logger: Logger,
): void {
  if (record.principal !== session.principal) return;
  const current = session.record;
  session.record = record;
  void replaySessionState(session, current, record).catch((error) =>
    logger.warn('could not apply to an MCP session what its client changed at another replica', {
      session: id,
      error: errorMessage(error),
    }),
  );
}
