import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Caller } from '@search-mcp/catalog';
import { errorMessage, type Logger } from '@search-mcp/shared';
import type { EndpointSession } from './endpoint-session.js';
import { serveInternally } from './internal-request.js';
import type { SessionPool } from './session-pool.js';
import { replaySessionState } from './session-state-replay.js';
import type { SessionRebuilder } from './shared-sessions.js';

export interface SessionRebuildOptions {
  pool: SessionPool<EndpointSession>;
  /** A new server and its transport for `caller`, connected, whose session id generator returns `id`. */
  open(caller: Caller, id: string): Promise<EndpointSession>;
  /** Ends a session's transport and server. */
  end(session: EndpointSession): Promise<void>;
  /** Ends the sessions closed to make room (as for a new session). */
  evicted(sessions: ReadonlyArray<{ id: string; session: EndpointSession }>): void;
  logger: Logger;
}

/** The ids of the replayed requests: the client never sees their answers, and its own ids cannot collide on a new session. */
const replayId = (step: string) => `search-mcp:resume:${step}`;

/**
 * Rebuilds on this replica a 2025 session another replica opened (apps/http-server/README.md, "Replicas"): a new
 * server and transport under the same id, through which the stored `initialize` and `notifications/initialized` are
 * served as the client sent them (answers discarded), then the session's log level and resource subscriptions. Only
 * then is it admitted to the pool (under the same fair share as a new session): no request sees it half built.
 */
export function createSessionRebuilder(options: SessionRebuildOptions): SessionRebuilder {
  return async (id, record, caller) => {
    const admission = options.pool.admit(record.principal);
    if (!admission.admitted) return { resumed: false, refusal: admission.message };
    const { slot } = admission;
    options.evicted(slot.evicted);
    // Who asks is this request's caller (the same token); the project is the one the session opened with.
    const { projectId: _asked, ...identity } = caller;
    const sessionCaller: Caller = {
      ...identity,
      ...(record.projectId !== undefined ? { projectId: record.projectId } : {}),
    };
    let session: EndpointSession | undefined;
    try {
      session = await options.open(sessionCaller, id);
      const { transport } = session;
      const replay = async (message: JSONRPCMessage, expected: number, headers?: Record<string, string>) => {
        const status = await serveInternally(transport.inner, message, headers);
        if (status !== expected)
          throw new Error(`replaying ${'method' in message ? message.method : 'a message'} answered ${status}`);
      };
      await replay(
        { jsonrpc: '2.0', id: replayId('initialize'), method: 'initialize', params: record.initialize },
        200,
      );
      const protocolVersion = transport.negotiatedProtocolVersion;
      if (transport.sessionId !== id || protocolVersion === undefined)
        throw new Error('the replayed initialize opened no session');
      const headers = { 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion };
      await replay({ jsonrpc: '2.0', method: 'notifications/initialized' }, 202, headers);
      await replaySessionState(session, undefined, record);
      // Nobody will resume the replayed initialize's stream.
      session.events.delivered([replayId('initialize')]);
      session.lastSeen = Date.now();
      session.resumed = true;
      slot.commit(id, session);
      return { resumed: true, session };
    } catch (error) {
      slot.release();
      if (session) await options.end(session);
      options.logger.warn('could not resume an MCP session another replica opened', {
        session: id,
        error: errorMessage(error),
      });
      return { resumed: false };
    }
  };
}
