import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger, RemoteServerConfig } from '@search-mcp/shared';
import { ProgressOrderingTransport } from '../transport/progress-ordering-transport.js';
import type { OriginTracker } from './origin-tracker.js';

export interface RemoteConnectOptions {
  /** Makes a fresh SDK client; the fallback needs a second one. */
  createClient: () => Client;
  timeoutMs: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
  logger: Logger;
  /** Tags server→client requests with the request of ours whose POST stream they came on (Streamable HTTP). */
  originTracker?: OriginTracker;
}

export interface RemoteConnection {
  client: Client;
  transport: Transport;
  kind: 'http' | 'sse';
}

/** Status codes an SSE-only (pre-2025-03-26) server answers to a Streamable HTTP POST. */
const fallbackStatuses = new Set([400, 404, 405]);

/**
 * Connects to a remote server: Streamable HTTP, SSE, or (no `type` in the config) Streamable HTTP falling back to
 * SSE when the server rejects the POST with 400/404/405, as the MCP spec's backwards-compatibility section advises.
 */
export async function connectRemote(
  config: RemoteServerConfig,
  options: RemoteConnectOptions,
): Promise<RemoteConnection> {
  if (config.transport === 'sse') return connectWith('sse', config, options);
  if (config.transport === 'http') return connectWith('http', config, options);
  try {
    return await connectWith('http', config, options);
  } catch (error) {
    if (!(error instanceof StreamableHTTPError) || error.code === undefined || !fallbackStatuses.has(error.code)) {
      throw error;
    }
    options.logger.info('Streamable HTTP refused, trying SSE', { status: error.code });
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
  const transport: Transport =
    kind === 'http'
      ? new StreamableHTTPClientTransport(url, {
          requestInit,
          ...(fetchImplementation ? { fetch: fetchImplementation } : {}),
        })
      : new SSEClientTransport(url, { requestInit, ...(options.fetch ? { fetch: options.fetch } : {}) });
  tracker?.watch(transport);
  const client = options.createClient();
  try {
    await client.connect(new ProgressOrderingTransport(transport), {
      timeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return { client, transport, kind };
}
