import type { DiscoverResult } from '@modelcontextprotocol/client';

/**
 * What the era probe learnt, in the shape the 2.x client's `connect(transport, { prior })` adopts: a modern verdict
 * carries the backend's discover result, so the client connects without sending `server/discover` again.
 */
export type PriorVerdict = { kind: 'modern'; discover: DiscoverResult };

/**
 * The options a connect passes to a backend client. `prior` is read by the 2.x client only (`ModernBackendClient`
 * passes connect options through); it is set only when that client is the one connecting.
 */
export interface PeerConnectOptions {
  timeout: number;
  signal?: AbortSignal;
  prior?: PriorVerdict;
}
