import type { RemoteServerConfig } from '@search-mcp/shared';
import type { PeerConnectOptions } from '../era/prior-verdict.js';
import type { RemoteConnection, RemoteConnectHints, RemoteConnectOptions } from '../remote-connect-options.js';
import { loadedModernClient } from './modern-client-loader.js';

/** A 2026-07-28 backend: Streamable HTTP only (the era has no SSE transport), on the 2.x SDK's transport. */
export async function connectModernRemote(
  config: RemoteServerConfig,
  options: RemoteConnectOptions,
  hints: RemoteConnectHints,
): Promise<RemoteConnection> {
  const { prior } = hints;
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
