import type { RemoteServerConfig } from '@search-mcp/shared';
import { chooseAutoEra } from './era/auto-era.js';
import { eraStrategy } from './era/era-strategies.js';
import { probeWaitMs } from './era/era-probe.js';
import { probeOverHttp } from './era/http-era-probe.js';
import type { RemoteConnection, RemoteConnectOptions } from './remote-connect-options.js';

export type { RemoteConnection, RemoteConnectOptions } from './remote-connect-options.js';

/**
 * Status codes of a refused era probe that mean the url takes no POST at all: an SSE-only server (a 2025 Streamable
 * HTTP server answers 400 to any POST but `initialize` without a session, so 400 proves nothing there).
 */
const sseOnlyStatuses = new Set([404, 405]);

/**
 * Connects to a remote server in its era, through the era's strategy (`legacy/legacy-remote-connection.ts`: Streamable
 * HTTP or SSE with the fallback; `modern/modern-remote-connection.ts`: the 2.x Streamable HTTP transport). In `auto` a
 * `server/discover` probe comes first: a backend offering 2026-07-28 is connected in it with the 2.x client
 * (adopting the probe's answer), anything else in 2025; an SSE server is 2025 by definition.
 */
export async function connectRemote(
  config: RemoteServerConfig,
  options: RemoteConnectOptions,
): Promise<RemoteConnection> {
  if (options.protocolEra !== 'auto' || config.transport === 'sse') {
    return eraStrategy(options.protocolEra === 'modern' ? 'modern' : 'legacy').connectRemote(config, options, {});
  }
  const outcome = await probeOverHttp(new URL(config.url), {
    clientInfo: options.clientInfo,
    headers: config.headers,
    timeoutMs: probeWaitMs(options.timeoutMs),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const choice = await chooseAutoEra(outcome, options);
  const refusedStatus = outcome.era === 'legacy' ? outcome.httpStatus : undefined;
  const sseOnly = config.transport === 'auto' && refusedStatus !== undefined && sseOnlyStatuses.has(refusedStatus);
  return eraStrategy(choice.era).connectRemote(config, options, {
    ...(choice.prior ? { prior: choice.prior } : {}),
    ...(sseOnly ? { sseOnlyStatus: refusedStatus } : {}),
  });
}
