import type { RequestId } from '@modelcontextprotocol/server';
import type { McpServerConnection } from './mcp-server-factory.js';
import type { SessionEventStore } from './session-event-store.js';
import type { StateChange } from './session-state-changes.js';
import type { PooledSession } from './session-pool.js';
import type { SharedSessionRecord } from './shared-session-record.js';
import type { TrackedTransport } from './tracked-transport.js';

/** One open 2025 session of `/mcp` on this replica. */
export interface EndpointSession extends PooledSession {
  transport: TrackedTransport;
  server: McpServerConnection;
  tokenId: string | undefined;
  events: SessionEventStore;
  /** Its record in the cluster store, as last written (or tried: a failed write is retried with the next change). */
  record?: SharedSessionRecord;
  /** Its requests that change its log level or subscriptions, by id, until answered (`SharedSessions.answered`). */
  stateChanges?: Map<RequestId, StateChange>;
  /** When the record's expiry was last moved (ms). */
  sharedAt: number;
  /** Rebuilt here from the record of a session another replica opened (its old streams' events are not here). */
  resumed?: boolean;
}
