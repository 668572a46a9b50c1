import type { DiscoverResult } from '@modelcontextprotocol/client';
import {
  isRecord,
  type JsonRpcMessage,
  type McpClientCapabilities,
  type McpImplementation,
  type McpTransport,
} from '@search-mcp/shared';
import { unsupportedProtocolVersionCode } from '../protocol-errors.js';

/** The 2026-07-28 revision: the only one of the modern era so far. */
export const modernRevision = '2026-07-28';

/** The id of our probe: a string no SDK client uses for its own requests (they count from 0). */
export const probeRequestId = 'search-mcp:server/discover';

/**
 * The longest a probe waits for an answer. Silence is rare (a 2025 server answers `-32601`) and costs only a
 * server's first connect (the verdict is remembered); mistaking a server still loading its modules for a silent one
 * costs more (a 2026 server is then asked `initialize`, refuses it and is started again), and a loaded machine
 * (measured: 10 fixtures starting at once on 2 cores) takes over 3 s to answer.
 */
export const maxProbeWaitMs = 10_000;

/**
 * What a `server/discover` probe showed:
 * - `modern`: the backend lists 2026-07-28: in its discover result (kept, to connect with it as the prior verdict),
 *   or in the `-32022` error it refused the probe with (the client then asks `server/discover` itself);
 * - `legacy`, `answered`: it answered something else (`-32601`, an error, a result without 2026-07-28) — connect in
 *   2025 on the same connection;
 * - `legacy`, `silent`: no answer in time — the same;
 * - `legacy`, `closed`: the connection ended on the probe (a server that exits on an unknown first request) — a new
 *   connection is needed for 2025;
 * - `legacy`, `unreachable`: the probe could not be sent (HTTP: no answer at all) — the 2025 connect reports why.
 * Over HTTP, `httpStatus` is the status of a refused probe (404/405: the url takes no POST, an SSE-only server).
 */
export type EraProbeOutcome =
  | { era: 'modern'; discover?: DiscoverResult }
  | { era: 'legacy'; reason: 'answered' | 'silent' | 'closed' | 'unreachable'; httpStatus?: number };

export interface EraProbeSettings {
  clientInfo: McpImplementation;
  /** What the client will declare (the envelope requires them on every request, the probe included). */
  capabilities?: McpClientCapabilities;
  timeoutMs: number;
  /** The connect's deadline: aborting it rejects the probe with its reason. */
  signal?: AbortSignal;
}

/** The probe: `server/discover` carrying the 2026-07-28 envelope (revision, client info, client capabilities). */
export function probeRequest(settings: Pick<EraProbeSettings, 'clientInfo' | 'capabilities'>): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id: probeRequestId,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': modernRevision,
        'io.modelcontextprotocol/clientInfo': settings.clientInfo,
        'io.modelcontextprotocol/clientCapabilities': settings.capabilities ?? {},
      },
    },
  };
}

/** Whether a message is the answer to our probe. */
export function isProbeAnswer(message: unknown): message is Record<string, unknown> {
  return isRecord(message) && message.id === probeRequestId && !('method' in message);
}

/**
 * The verdict of an answer to the probe: modern only on positive evidence (a discover result listing 2026-07-28 with
 * capabilities, or a `-32022` refusal listing it); every other error or shape means a 2025 server (`-32601` is what
 * a 1.x SDK server answers).
 */
export function classifyProbeAnswer(answer: Record<string, unknown>): EraProbeOutcome {
  const result = answer.result;
  if (
    isRecord(result) &&
    Array.isArray(result.supportedVersions) &&
    result.supportedVersions.includes(modernRevision) &&
    isRecord(result.capabilities)
  ) {
    return { era: 'modern', discover: result as DiscoverResult };
  }
  if (listsModernRevision(answer.error)) return { era: 'modern' };
  return { era: 'legacy', reason: 'answered' };
}

/**
 * A `-32022` (unsupported protocol version) error whose `data.supported` lists 2026-07-28: the server speaks it, it
 * only refused this request (a 2025 server has no such error: it would answer `-32601` or another one).
 */
export function listsModernRevision(error: unknown): boolean {
  if (!isRecord(error) || error.code !== unsupportedProtocolVersionCode || !isRecord(error.data)) return false;
  const { supported } = error.data;
  return Array.isArray(supported) && supported.includes(modernRevision);
}

/**
 * Sends the probe on a transport no client has attached to yet and waits for its answer, the connection's end or
 * `timeoutMs`. On return the transport is started and its handlers are free again (hand it over with
 * `StartedTransport`), unless the outcome is `closed`. Other messages meanwhile are dropped: a server sends nothing
 * worth keeping before it was asked anything. A transport that cannot start rejects with why.
 */
export async function probeInPlace(transport: McpTransport, settings: EraProbeSettings): Promise<EraProbeOutcome> {
  const { signal } = settings;
  signal?.throwIfAborted();
  let settle: (outcome: EraProbeOutcome) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const answered = new Promise<EraProbeOutcome>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // The deadline may pass while the process is still starting, before anything awaits the answer.
  answered.catch(() => {});
  transport.onmessage = (message) => {
    if (isProbeAnswer(message)) settle(classifyProbeAnswer(message));
  };
  transport.onclose = () => settle({ era: 'legacy', reason: 'closed' });
  transport.onerror = () => {
    // A broken pipe on a server that exits on the probe: its end arrives through onclose.
  };
  const onAbort = () => fail(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    await transport.start();
    timer = setTimeout(() => settle({ era: 'legacy', reason: 'silent' }), settings.timeoutMs);
    // A server that dies before reading the probe rejects the write; its end arrives through onclose.
    transport.send(probeRequest(settings)).catch(() => {});
    return await answered;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    transport.onmessage = undefined;
    transport.onclose = undefined;
    transport.onerror = undefined;
  }
}

/**
 * How long a probe may wait: at most `maxProbeWaitMs`, and at most half the start-up budget, so the 2025 handshake
 * after a silent probe keeps the other half.
 */
export function probeWaitMs(startupTimeoutMs: number): number {
  return Math.max(1, Math.min(maxProbeWaitMs, Math.floor(startupTimeoutMs / 2)));
}
