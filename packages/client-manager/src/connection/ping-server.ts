import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage, type ServerHealth } from '@search-mcp/shared';
import { toBackendFailure } from './backend-error-mapping.js';

/** One `ping` round trip to a connected server, for `healthCheck()`; failures become `ok: false` with why. */
export async function pingServer(client: Client, serverId: string, timeoutMs: number): Promise<ServerHealth> {
  const started = performance.now();
  try {
    await client.ping({ timeout: timeoutMs });
    return { id: serverId, ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    const failure = toBackendFailure(error, { serverId, operation: 'ping', timeoutMs });
    return { id: serverId, ok: false, error: errorMessage(failure) };
  }
}
