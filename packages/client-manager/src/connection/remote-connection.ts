import type { Logger, McpFetchLike, McpImplementation, McpTransport, RemoteServerConfig } from '@search-mcp/shared';
import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import { probeWaitMs } from './era/era-probe.js';
import { probeOverHttp } from './era/http-era-probe.js';
import { loadedLegacyClient } from '../legacy/legacy-client-loader.js';
import type { ProtocolErrors } from './protocol-errors.js';
import { chooseAutoEra } from './era/auto-era.js';
import { loadedModernClient } from './modern/modern-client-loader.js';
import type { PeerConnectOptions, PriorVerdict } from './era/prior-verdict.js';
import { ProgressOrderingTransport } from '../transport/progress-ordering-transport.js';
import type { OriginTracker } from './origin-tracker.js';

export interface RemoteConnectOptions {
  /** Makes a fresh SDK client of an era; the fallback needs a second one. */
  createClient: (era: ProtocolEra) => BackendPeer;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * `modern`: the 2.x Streamable HTTP transport (2026-07-28 headers, no session, no SSE fallback). `auto` (a config
   * without `type`, or `type: "http"`): a `server/discover` probe decides; an SSE server is 2025 by definition.
   */
  protocolEra?: ProtocolEra | 'auto';
  /** Who we are, for the probe's envelope. */
  clientInfo: McpImplementation;
  /** Called with what a probe showed. */
  onProbed?: (era: ProtocolEra) => void;
  fetch?: McpFetchLike;
  logger: Logger;
  /** Tags server→client requests with the request of ours whose POST stream they came on (Streamable HTTP). */
  originTracker?: OriginTracker;
  /** How the manager reads its SDKs' errors (a probe's 2026-07-28 verdict adopts the 2.x reader). */
  errors: ProtocolErrors;
}

export interface RemoteConnection {
  client: BackendPeer;
  transport: McpTransport;
  kind: 'http' | 'sse';
}

/** Status codes an SSE-only (pre-2025-03-26) server answers to a Streamable HTTP POST. */
const fallbackStatuses = new Set([400, 404, 405]);

/**
 * Those of them that also mean so for the era probe's POST (a 2025 Streamable HTTP server answers 400 to any POST
 * but `initialize` without a session, so 400 proves nothing there).
 */
const sseOnlyStatuses = new Set([404, 405]);

/**
 * Connects to a remote server: Streamable HTTP, SSE, or (no `type` in the config) Streamable HTTP falling back to
 * SSE when the server rejects the POST with 400/404/405, as the MCP spec's backwards-compatibility section advises.
 * In `auto` a `server/discover` probe comes first: a backend offering 2026-07-28 is connected in it with the 2.x
 * client (adopting the probe's answer), anything else in 2025 as before.
 */
export async function connectRemote(
  config: RemoteServerConfig,
  options: RemoteConnectOptions,
): Promise<RemoteConnection> {
  if (options.protocolEra === 'auto' && config.transport !== 'sse') {
    const outcome = await probeOverHttp(new URL(config.url), {
      clientInfo: options.clientInfo,
      headers: config.headers,
      timeoutMs: probeWaitMs(options.timeoutMs),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const choice = await chooseAutoEra(outcome, options);
    if (outcome.era === 'modern') return connectModern(config, options, choice.prior);
    // The url takes no POST at all: an SSE-only server, no need to POST `initialize` to learn that again.
    if (config.transport === 'auto' && outcome.httpStatus !== undefined && sseOnlyStatuses.has(outcome.httpStatus)) {
      options.logger.info('Streamable HTTP refused, trying SSE', { status: outcome.httpStatus });
      return connectWith('sse', config, options);
    }
  }
  if (options.protocolEra === 'modern') return connectModern(config, options);
  if (config.transport === 'sse') return connectWith('sse', config, options);
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

/** A 2026-07-28 backend: Streamable HTTP only (the era has no SSE transport), on the 2.x SDK's transport. */
async function connectModern(
  config: RemoteServerConfig,
  options: RemoteConnectOptions,
  prior?: PriorVerdict,
): Promise<RemoteConnection> {
  const transport = loadedModernClient().createModernHttpTransport(new URL(config.url), {
    headers: config.headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = options.createClient('modern');
  try {
    // `prior`: the probe's discover result, adopted without a second round trip (read by the 2.x client only).
    const connectOptions: PeerConnectOptions = {
      timeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(prior ? { prior } : {}),
    };
    // Not wrapped in ProgressOrderingTransport: that would hide the 2.x transport's per-request stream members.
    await client.connect(transport, connectOptions);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return { client, transport, kind: 'http' };
}
