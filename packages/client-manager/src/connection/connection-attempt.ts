import type { BackendPeer, ProtocolEra } from './backend-peer.js';
import {
  BackendAuthorizationError,
  type Logger,
  type McpFetchLike,
  type ServerConfig,
  type ServerTransportKind,
  TimeoutError,
  type ToolInfo,
  type McpImplementation,
} from '@search-mcp/shared';
import type { ProcessTransport } from '../process/process-transport.js';
import { closeConnection } from './close-connection.js';
import type { OriginTracker } from './origin-tracker.js';
import type { ConnectionFactory } from './connection-factory.js';
import { describeStartFailure, refusedLegacyHandshake } from './failure-messages.js';
import { eraStrategy } from './era/era-strategies.js';
import type { ProtocolErrors } from './protocol-errors.js';
import { listAllToolPages } from './tool-paging.js';

export interface ConnectionAttempt {
  config: ServerConfig;
  openConnection: ConnectionFactory;
  logger: Logger;
  /** A fresh client of the era asked for. */
  createClient: (era: ProtocolEra) => BackendPeer;
  /**
   * The era to connect in, when known (configured, or learnt by an earlier connect of this entry). Undefined: probe
   * (`auto`: 2026-07-28 when the backend offers it, else 2025 on the same connection) and, when the backend then
   * refuses the 2025 handshake as an unsupported version, connect again in 2026-07-28.
   */
  era: ProtocolEra | undefined;
  /** Who we are (the probe's envelope). */
  clientInfo: McpImplementation;
  /** A probe showed the era (remember it even if the connect then fails: the next one needs no probe). */
  onProbed: (era: ProtocolEra) => void;
  /** Called as soon as a local process exists (see `ConnectionRequest.onProcess`). */
  onProcess: (process: ProcessTransport) => void;
  originTracker?: OriginTracker;
  /** How the manager reads its SDKs' errors: each SDK this attempt loads adds its reader. */
  errors: ProtocolErrors;
  /** Remote servers with OAuth: wraps the connection's fetch (see `ConnectionRequest.wrapFetch`). */
  wrapFetch?: (next: McpFetchLike) => McpFetchLike;
}

export interface ConnectedServer {
  client: BackendPeer;
  process?: ProcessTransport;
  kind: ServerTransportKind;
  /** The era the connection speaks (cache it: the next connect goes straight to it). */
  era: ProtocolEra;
  tools: ToolInfo[];
  /** Spawn, initialize and every tools/list page, in milliseconds. */
  connectMs: number;
}

/**
 * One attempt to bring a server up within its `startupTimeoutMs`: open the connection, then list every page of
 * tools. On failure it closes what it opened and throws one error saying why, with how the process ended and the
 * last lines of its stderr (`TimeoutError` when the time ran out, else `ServerNotRunningError`).
 */
export async function connectAndListTools(attempt: ConnectionAttempt): Promise<ConnectedServer> {
  if (attempt.era !== undefined) return connectInEra(attempt, attempt.era);
  try {
    return await connectInEra(attempt, 'auto');
  } catch (error) {
    if (!refusedLegacyHandshake(error, attempt.errors)) throw error;
    attempt.logger.info('the server refused the 2025 handshake; connecting in 2026-07-28');
    return connectInEra(attempt, 'modern');
  }
}

async function connectInEra(attempt: ConnectionAttempt, era: ProtocolEra | 'auto'): Promise<ConnectedServer> {
  // The client is made synchronously inside the factory once its SDK is loaded (`auto`: the 1.x one, the era most
  // backends end up in; a 2026-07-28 verdict of the probe loads the 2.x one too). The factory awaits it only after
  // spawning a local server, so the module loads while the server starts.
  const clientLoaded = eraStrategy(era === 'auto' ? 'legacy' : era).load(attempt.errors);
  // Awaited by the factory; a factory that fails before awaiting it must not leave an unhandled rejection.
  clientLoaded.catch(() => {});
  const { config, logger } = attempt;
  const timeoutMs = config.startupTimeoutMs;
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new TimeoutError({ timeoutMs })), timeoutMs);
  let client: BackendPeer | undefined;
  let serverProcess: ProcessTransport | undefined;
  try {
    const opened = await attempt.openConnection({
      config,
      createClient: (chosen = era === 'auto' ? 'legacy' : era) => attempt.createClient(chosen),
      clientLoaded,
      protocolEra: era,
      clientInfo: attempt.clientInfo,
      onProbed: attempt.onProbed,
      timeoutMs,
      signal: deadline.signal,
      logger,
      errors: attempt.errors,
      ...(attempt.originTracker ? { originTracker: attempt.originTracker } : {}),
      ...(attempt.wrapFetch ? { wrapFetch: attempt.wrapFetch } : {}),
      onProcess: (spawned) => {
        serverProcess = spawned;
        attempt.onProcess(spawned);
      },
    });
    client = opened.client;
    serverProcess = opened.process ?? serverProcess;
    const remaining = Math.max(1, timeoutMs - (performance.now() - started));
    const tools = await listAllToolPages(client, {
      config,
      logger,
      timeoutMs: remaining,
      signal: deadline.signal,
      errors: attempt.errors,
    });
    const connectMs = Math.round((performance.now() - started) * 10) / 10;
    return {
      client,
      kind: opened.kind,
      era: client.protocolEra,
      tools,
      connectMs,
      ...(serverProcess ? { process: serverProcess } : {}),
    };
  } catch (error) {
    await closeConnection(client, serverProcess);
    // OAuth said why in its own words (the server and the step, or the command that authorizes it).
    const authorization = authorizationFailureIn(error);
    if (authorization) throw authorization;
    throw describeStartFailure({
      serverId: config.id,
      error,
      timeoutMs,
      deadline: deadline.signal,
      process: serverProcess,
      errors: attempt.errors,
      ...(config.transport === 'stdio' ? {} : { url: config.url }),
    });
  } finally {
    clearTimeout(timer);
  }
}

/** The OAuth failure behind a failed connect, however deep an SDK wrapped it. */
export function authorizationFailureIn(error: unknown): BackendAuthorizationError | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 6; depth += 1) {
    if (BackendAuthorizationError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
