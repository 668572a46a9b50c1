import type { BackendPeer } from './backend-peer.js';
import { errorMessage, type ServerHealth } from '@search-mcp/shared';
import { toBackendFailure } from './backend-error-mapping.js';
import type { ProtocolErrors } from './protocol-errors.js';

/**
 * One health round trip to a connected server (`ping`, or `server/discover` for a 2026-07-28 backend), for
 * `healthCheck()`; failures become `ok: false` with why.
 */
export async function pingServer(
  client: BackendPeer,
  serverId: string,
  timeoutMs: number,
  errors: ProtocolErrors,
): Promise<ServerHealth> {
  const started = performance.now();
  try {
    await client.checkHealth({ timeout: timeoutMs });
    return { id: serverId, ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    const failure = toBackendFailure(error, {
      serverId,
      operation: client.protocolEra === 'modern' ? 'server/discover' : 'ping',
      timeoutMs,
      errors,
    });
    return { id: serverId, ok: false, error: errorMessage(failure) };
  }
}
