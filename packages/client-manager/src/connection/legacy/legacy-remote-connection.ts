import type { RemoteServerConfig } from '@search-mcp/shared';
import { loadedLegacyClient } from '../../legacy/legacy-client-loader.js';
import { ProgressOrderingTransport } from '../../transport/progress-ordering-transport.js';
import type { RemoteConnection, RemoteConnectHints, RemoteConnectOptions } from '../remote-connect-options.js';

/** Status codes an SSE-only (pre-2025-03-26) server answers to a Streamable HTTP POST. */
const fallbackStatuses = new Set([400, 404, 405]);

/**
 * A 2025 backend over HTTP: Streamable HTTP, SSE, or (no `type` in the config) Streamable HTTP falling back to SSE
 * when the server rejects the POST with 400/404/405, as the MCP spec's backwards-compatibility section advises.
 */
export async function connectLegacyRemote(
  config: RemoteServerConfig,
  options: RemoteConnectOptions,
  hints: RemoteConnectHints,
): Promise<RemoteConnection> {
  if (config.transport === 'sse') return connectWith('sse', config, options);
  if (hints.sseOnlyStatus !== undefined) {
    options.logger.info('Streamable HTTP refused, trying SSE', { status: hints.sseOnlyStatus });
    return connectWith('sse', config, options);
  }
  try {
    return await connectWith('http', config, options);
  } catch (error) {
    // A JSON-RPC error in the body (a 2026-07-28-only server refusing `initialize`) comes as that error, with no HTTP
    // status: it does speak Streamable HTTP, no SSE fallback.
    if (config.transport === 'http') throw error;
    const status = options.errors.httpStatusOf(error);
    if (status === undefined || !fallbackStatuses.has(status)) throw error;
    options.logger.info('Streamable HTTP refused, trying SSE', { status });
    return connectWith('sse', config, options);
  }
}

async function connectWith(
  kind: 'http' | 'sse',
  config: RemoteServerConfig,
  options: RemoteConnectOptions,
): Promise<RemoteConnection> {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers };
  const tracker = kind === 'http' ? options.originTracker : undefined;
  const fetchImplementation = tracker ? tracker.taggingFetch(options.fetch ?? fetch) : options.fetch;
  const legacy = loadedLegacyClient();
  const http =
    kind === 'http' ? legacy.createLegacyHttpTransport(url, { requestInit, fetch: fetchImplementation }) : undefined;
  const transport = http?.transport ?? legacy.createLegacySseTransport(url, { requestInit, fetch: options.fetch });
  tracker?.watch(transport);
  const client = options.createClient('legacy');
  try {
    await client.connect(new ProgressOrderingTransport(transport), {
      timeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    await client.close().catch(() => {});
    throw http?.refusal() ?? error;
  }
  return { client, transport, kind };
}
